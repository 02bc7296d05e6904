/**
 * Money per currency, as Stripe counts it. Stripe takes and gives amounts in the currency's minor
 * unit, 10^exponent of them per main unit: cents for most currencies, the unit itself for
 * zero-decimal ones (¥1,000 is 1000), thousandths for three-decimal ones (BHD 12.500 is 12500).
 * Every amount that crosses to or from Stripe goes through toMinor / fromMinor, and every amount
 * shown uses the same table, so what is shown is what is charged.
 */

/** Stripe's zero-decimal currencies: the amount is in whole units. */
const ZERO_DECIMAL = ['bif', 'clp', 'djf', 'gnf', 'jpy', 'kmf', 'krw', 'mga', 'pyg', 'rwf', 'vnd', 'vuv', 'xaf', 'xof', 'xpf'];
/**
 * Whole units only, yet Stripe still counts hundredths (its backwards compatibility): 5 ISK is 500,
 * and an amount that is not a multiple of 100 is refused.
 */
const WHOLE_UNITS_IN_HUNDREDTHS = ['isk', 'ugx'];
/** Three decimals, but Stripe refuses a last digit other than 0: amounts go in steps of 0.010. */
const THREE_DECIMAL = ['bhd', 'jod', 'kwd', 'omr', 'tnd'];

export interface CurrencyRule {
  /** Minor units per main unit at Stripe: 10^exponent. */
  exponent: 0 | 2 | 3;
  /** Decimals an amount may carry (a price, a refund): what Stripe can charge. */
  decimals: 0 | 2;
  /** Decimals an amount is written with. */
  shown: 0 | 2 | 3;
}

const TWO_DECIMAL: CurrencyRule = { exponent: 2, decimals: 2, shown: 2 };

/** The rule for a currency code (any case); a code not listed is a two-decimal currency, as at Stripe. */
export const currencyRule = (currency: string): CurrencyRule => {
  const code = currency.trim().toLowerCase();
  if (ZERO_DECIMAL.includes(code)) return { exponent: 0, decimals: 0, shown: 0 };
  if (WHOLE_UNITS_IN_HUNDREDTHS.includes(code)) return { exponent: 2, decimals: 0, shown: 0 };
  if (THREE_DECIMAL.includes(code)) return { exponent: 3, decimals: 2, shown: 3 };
  return TWO_DECIMAL;
};

const DECIMAL = /^(\d+)(?:\.(\d+))?$/;

/** A non-negative amount as digits ('19.99'), or null when it is not one. */
const digitsOf = (amount: string | number): { whole: string; fraction: string } | null => {
  const text = typeof amount === 'number' ? (Number.isFinite(amount) && amount >= 0 ? amount.toFixed(10) : '') : amount.trim();
  const match = DECIMAL.exec(text);
  if (!match) return null;
  // Trailing zeros carry nothing: '1000.00' is a whole amount, '12.340' has two decimals.
  return { whole: match[1]!, fraction: (match[2] ?? '').replace(/0+$/, '') };
};

/** Whether the amount has no more decimals than the currency can be charged in. */
export const fitsCurrency = (amount: string | number, currency: string): boolean => {
  const digits = digitsOf(amount);
  return digits !== null && digits.fraction.length <= currencyRule(currency).decimals;
};

/**
 * A main-unit amount ('19.99', 1000) in Stripe's minor units for the currency (1999; 1000 for JPY;
 * 12500 for BHD 12.5). Exact for the amounts fitsCurrency accepts; extra decimals are rounded.
 */
export const toMinor = (amount: string | number, currency: string): number => {
  const digits = digitsOf(amount);
  if (!digits) throw new RangeError(`not an amount: ${String(amount)}`);
  const { exponent } = currencyRule(currency);
  const fraction = digits.fraction.padEnd(exponent + 1, '0');
  const minor = Number(digits.whole + fraction.slice(0, exponent)) + (Number(fraction[exponent]) >= 5 ? 1 : 0);
  if (!Number.isSafeInteger(minor)) throw new RangeError(`amount out of range: ${String(amount)}`);
  return minor;
};

/** Stripe's minor units back to a main-unit amount (1999 → 19.99; 1000 JPY → 1000; 12500 BHD → 12.5). */
export const fromMinor = (minor: number, currency: string): number => {
  const { exponent } = currencyRule(currency);
  return Number((Math.round(minor) / 10 ** exponent).toFixed(exponent));
};

/** The amount written with the currency's decimals, without a symbol ('19.00', '1000', '12.500'). */
export const formatAmount = (amount: string | number, currency: string): string => {
  const n = Number(amount);
  return (Number.isFinite(n) ? n : 0).toFixed(currencyRule(currency).shown);
};

/** Money in en-US with the currency's symbol and decimals ('$19.00', '¥1,000', 'BHD 12.500'); an unknown code reads '19.00 XYZ'. */
export const formatMoney = (amount: number | string, currency = 'usd'): string => {
  const n = Number(amount);
  const value = Number.isFinite(n) ? n : 0;
  const digits = currencyRule(currency).shown;
  try {
    return new Intl.NumberFormat('en-US', {
      style: 'currency',
      currency: currency.toUpperCase(),
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    }).format(value);
  } catch {
    return `${value.toFixed(digits)} ${currency.toUpperCase()}`;
  }
};

/** An invoice's money as refunds see it (amounts in the currency's main unit). */
export interface RefundableInvoice {
  amount: number | string | null;
  amount_refunded: number | string | null;
  currency: string | null;
  status: string;
}

/** What is still refundable of an invoice, in minor units: the unrefunded rest of a paid invoice, else 0. */
export const refundableMinor = (invoice: RefundableInvoice): number => {
  if (invoice.status !== 'paid') return 0;
  const currency = invoice.currency ?? 'usd';
  const left = toMinor(Number(invoice.amount ?? 0), currency) - toMinor(Number(invoice.amount_refunded ?? 0), currency);
  return Math.max(0, left);
};

/** The same in the currency's main unit. */
export const refundableAmount = (invoice: RefundableInvoice): number => fromMinor(refundableMinor(invoice), invoice.currency ?? 'usd');

/**
 * An invoice's status as people read it: 'refunded' only once all of it went back, 'partially
 * refunded' while part of a paid invoice did; otherwise Stripe's status ('payment_required' → 'payment required').
 */
export const invoiceStatusLabel = (invoice: RefundableInvoice): string => {
  if (invoice.status === 'paid' && Number(invoice.amount_refunded ?? 0) > 0) return 'partially refunded';
  return invoice.status.replace(/_/g, ' ');
};
