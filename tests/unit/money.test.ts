import { currencyRule, fitsCurrency, formatAmount, formatMoney, fromMinor, priceDisplay, toMinor } from '@branchify/shared';

/** Stripe's minor units per currency (docs.stripe.com/currencies), both ways, and what is shown. */
describe('money per currency', () => {
  const ZERO = ['bif', 'clp', 'djf', 'gnf', 'jpy', 'kmf', 'krw', 'mga', 'pyg', 'rwf', 'vnd', 'vuv', 'xaf', 'xof', 'xpf'];
  const THREE = ['bhd', 'jod', 'kwd', 'omr', 'tnd'];

  it.each(ZERO)('%s is zero-decimal: 1000 is 1000 at Stripe', (currency) => {
    expect(toMinor('1000', currency)).toBe(1000);
    expect(fromMinor(1000, currency)).toBe(1000);
    expect(fitsCurrency('1000.5', currency)).toBe(false);
    expect(currencyRule(currency.toUpperCase())).toEqual({ exponent: 0, decimals: 0, shown: 0 });
  });

  it.each(THREE)('%s is three-decimal, charged in steps of 0.010: 12.5 is 12500', (currency) => {
    expect(toMinor('12.5', currency)).toBe(12500);
    expect(toMinor(12.34, currency)).toBe(12340);
    expect(fromMinor(12340, currency)).toBe(12.34);
    expect(fitsCurrency('12.340', currency)).toBe(true);
    expect(fitsCurrency('12.345', currency)).toBe(false);
  });

  it.each(['isk', 'ugx'])('%s is charged in whole units counted in hundredths: 500 is 50000', (currency) => {
    expect(toMinor('500', currency)).toBe(50000);
    expect(fromMinor(50000, currency)).toBe(500);
    expect(fitsCurrency('500.50', currency)).toBe(false);
    expect(formatAmount(500, currency)).toBe('500');
  });

  it.each(['usd', 'eur', 'huf', 'twd', 'xyz'])('%s is two-decimal (HUF and TWD charge cents too; unknown codes as at Stripe)', (currency) => {
    expect(toMinor('19.99', currency)).toBe(1999);
    expect(toMinor(19.99, currency)).toBe(1999);
    expect(toMinor('0.1', currency)).toBe(10);
    expect(fromMinor(1999, currency)).toBe(19.99);
    expect(fitsCurrency('19.999', currency)).toBe(false);
    expect(fitsCurrency(0.1 + 0.2, currency)).toBe(true);
  });

  it('refuses what is not an amount', () => {
    expect(() => toMinor('ten', 'usd')).toThrow(RangeError);
    expect(() => toMinor(-1, 'usd')).toThrow(RangeError);
    expect(fitsCurrency('-1', 'usd')).toBe(false);
  });

  it('shows the decimals that are charged', () => {
    expect(formatMoney(1000, 'jpy')).toBe('¥1,000');
    expect(formatMoney('12.5', 'BHD')).toBe('BHD\u00a012.500');
    expect(formatMoney(500, 'isk')).toBe('ISK\u00a0500');
    expect(formatMoney(19, 'usd')).toBe('$19.00');
    expect(formatMoney(19, 'xyz')).toBe('XYZ\u00a019.00');
    expect(formatAmount('1000.00', 'jpy')).toBe('1000');
    expect(formatAmount('12.5', 'kwd')).toBe('12.500');
    expect(priceDisplay({ price: '1000', currency: 'jpy', payment_schedule: 'yearly' })).toBe('¥1,000/year');
  });
});
