/*
 * A Stripe.js test double for the browser suites, served in place of https://js.stripe.com/…/stripe.js
 * (see stripe-js.ts). Like Stripe.js it calls https://api.stripe.com, which the suite routes to the Stripe
 * test server unchanged (the app's Content-Security-Policy allows https: for connect-src, as Stripe.js
 * needs). It implements what @stripe/stripe-js v10 and @stripe/react-stripe-js v7 use:
 *
 *   Stripe(publishableKey, { stripeAccount })      version 'endive', _registerWrapper, registerAppInfo
 *   .elements() → .create('card') → element         a real form (card number, MM / YY, CVC, ZIP unless
 *                                                   hidePostalCode) in the mount node, 'change' events
 *                                                   { elementType, empty, complete, error, brand }
 *   .createPaymentMethod({ type: 'card', card })     validates the form as Stripe.js does, then POSTs
 *                                                   /v1/payment_methods to the test server with the
 *                                                   publishable key as the `key` form field (no preflight)
 *   .confirmCardPayment(clientSecret)               shows Stripe's test-mode 3-D Secure page ('Complete'
 *                                                   / 'Fail'); Complete → the test server's bank
 *                                                   (its control API, POST /_control/complete-3ds, on the
 *                                                   same routed host) → { paymentIntent }
 *
 * Nothing here answers for the app's own /api calls. Plain ES2017, no build step.
 */
(function () {
  'use strict';
  var API = window.__BRANCHIFY_STRIPE_API__ || 'https://api.stripe.com';
  var log = (window.__stripeJsDouble = { calls: [], wrappers: [], appInfo: [] });

  var CHALLENGE_Z = 2147483647;

  var digits = function (s) {
    return String(s || '').replace(/\D/g, '');
  };
  var luhn = function (n) {
    var sum = 0;
    for (var i = 0; i < n.length; i += 1) {
      var d = Number(n[n.length - 1 - i]);
      if (i % 2 === 1) {
        d *= 2;
        if (d > 9) d -= 9;
      }
      sum += d;
    }
    return n.length > 0 && sum % 10 === 0;
  };
  var brandOf = function (n) {
    if (/^4/.test(n)) return 'visa';
    if (/^(5[1-5]|2[2-7])/.test(n)) return 'mastercard';
    if (/^3[47]/.test(n)) return 'amex';
    if (/^6(011|5)/.test(n)) return 'discover';
    return 'unknown';
  };
  var err = function (type, code, message) {
    return { type: type, code: code, message: message };
  };

  /** Stripe.js's own checks of the card form, with its messages. */
  var validate = function (state, postal) {
    var n = digits(state.number);
    var brandLength = brandOf(n) === 'amex' ? 15 : 16;
    if (!n) return { empty: true, error: err('validation_error', 'incomplete_number', 'Your card number is incomplete.') };
    if (n.length < brandLength) return { error: err('validation_error', 'incomplete_number', 'Your card number is incomplete.') };
    if (n.length > brandLength || !luhn(n)) return { error: err('validation_error', 'invalid_number', 'Your card number is invalid.') };
    var exp = /^\s*(\d{1,2})\s*\/?\s*(\d{2}|\d{4})\s*$/.exec(state.expiry || '');
    if (!exp) return { error: err('validation_error', 'incomplete_expiry', "Your card's expiration date is incomplete.") };
    var month = Number(exp[1]);
    var year = Number(exp[2].length === 2 ? '20' + exp[2] : exp[2]);
    if (month < 1 || month > 12) return { error: err('validation_error', 'invalid_expiry_month', "Your card's expiration date is invalid.") };
    var today = new Date();
    if (year < today.getFullYear() || (year === today.getFullYear() && month < today.getMonth() + 1)) {
      return { error: err('validation_error', 'invalid_expiry_year_past', "Your card's expiration year is in the past.") };
    }
    var cvc = digits(state.cvc);
    if (cvc.length < 3) return { error: err('validation_error', 'incomplete_cvc', "Your card's security code is incomplete.") };
    if (postal && !String(state.postal || '').trim()) return { error: err('validation_error', 'incomplete_zip', 'Your postal code is incomplete.') };
    return { complete: true, card: { number: n, exp_month: month, exp_year: year, cvc: cvc }, brand: brandOf(n) };
  };

  var formBody = function (fields) {
    var parts = [];
    var add = function (key, value) {
      if (value === undefined || value === null) return;
      if (typeof value === 'object') {
        Object.keys(value).forEach(function (k) {
          add(key + '[' + k + ']', value[k]);
        });
      } else {
        parts.push(encodeURIComponent(key) + '=' + encodeURIComponent(String(value)));
      }
    };
    Object.keys(fields).forEach(function (k) {
      add(k, fields[k]);
    });
    return parts.join('&');
  };

  var networkError = function (e) {
    return { error: err('api_connection_error', undefined, 'An error occurred with our connection to Stripe. ' + (e && e.message ? e.message : '')) };
  };

  // ------------------------------------------------------------------ elements

  var CardElement = function (elementType, options) {
    this._type = elementType;
    this._options = options || {};
    this._handlers = {};
    this._state = { number: '', expiry: '', cvc: '', postal: '' };
    this._root = null;
    this._node = null;
    this._destroyed = false;
  };
  CardElement.prototype._emit = function (event, payload) {
    var list = (this._handlers[event] || []).slice();
    for (var i = 0; i < list.length; i += 1) list[i](payload);
  };
  CardElement.prototype._postal = function () {
    return this._type === 'card' && !this._options.hidePostalCode;
  };
  CardElement.prototype._render = function () {
    var self = this;
    var root = document.createElement('div');
    root.className = 'StripeElement StripeElement--empty';
    root.setAttribute('data-stripe-double', this._type);
    root.style.display = 'flex';
    root.style.gap = '8px';
    var field = function (name, label, placeholder, flex, autocomplete) {
      var input = document.createElement('input');
      input.name = name;
      input.type = 'text';
      input.inputMode = name === 'postal' ? 'text' : 'numeric';
      input.autocomplete = autocomplete;
      input.placeholder = placeholder;
      input.setAttribute('aria-label', label);
      input.style.flex = flex;
      input.style.minWidth = '0';
      input.style.border = '0';
      input.style.outline = 'none';
      input.style.font = 'inherit';
      input.style.fontSize = '16px';
      input.style.background = 'transparent';
      input.addEventListener('input', function () {
        self._state[name === 'cardnumber' ? 'number' : name === 'exp-date' ? 'expiry' : name] = input.value;
        self._changed();
      });
      input.addEventListener('focus', function () {
        root.classList.add('StripeElement--focus');
        self._emit('focus', { elementType: self._type });
      });
      input.addEventListener('blur', function () {
        root.classList.remove('StripeElement--focus');
        self._emit('blur', { elementType: self._type });
      });
      root.appendChild(input);
      return input;
    };
    field('cardnumber', 'Card number', 'Card number', '3 1 0', 'cc-number');
    field('exp-date', 'Expiration date', 'MM / YY', '1 1 0', 'cc-exp');
    field('cvc', 'CVC', 'CVC', '1 1 0', 'cc-csc');
    if (this._postal()) field('postal', 'ZIP', 'ZIP', '1 1 0', 'postal-code');
    return root;
  };
  CardElement.prototype._changed = function () {
    var v = validate(this._state, this._postal());
    var n = digits(this._state.number);
    var empty = !n && !this._state.expiry && !this._state.cvc && !this._state.postal;
    // Like Stripe.js, only report an error once the user could have finished the field.
    var shown = v.error && (v.error.code.indexOf('invalid') === 0 || v.error.code === 'invalid_expiry_year_past') ? v.error : undefined;
    if (this._root) {
      this._root.classList.toggle('StripeElement--empty', empty);
      this._root.classList.toggle('StripeElement--complete', Boolean(v.complete));
      this._root.classList.toggle('StripeElement--invalid', Boolean(shown));
    }
    this._emit('change', {
      elementType: this._type,
      empty: empty,
      complete: Boolean(v.complete),
      error: shown,
      brand: brandOf(n),
      value: this._postal() ? { postalCode: this._state.postal } : {},
    });
  };
  CardElement.prototype.mount = function (target) {
    if (this._destroyed) throw new Error('This Element has already been destroyed. Please create a new one.');
    var node = typeof target === 'string' ? document.querySelector(target) : target;
    if (!node) throw new Error('The selector you specified (' + target + ') applies to no DOM elements that are currently on the page.');
    this._node = node;
    this._root = this._render();
    node.appendChild(this._root);
    var self = this;
    setTimeout(function () {
      self._emit('ready', { elementType: self._type });
    }, 0);
  };
  CardElement.prototype.unmount = function () {
    if (this._root && this._root.parentNode) this._root.parentNode.removeChild(this._root);
    this._root = null;
    this._node = null;
  };
  CardElement.prototype.destroy = function () {
    this.unmount();
    this._destroyed = true;
    this._handlers = {};
    if (this._elements) this._elements._forget(this);
  };
  CardElement.prototype.on = function (event, handler) {
    (this._handlers[event] = this._handlers[event] || []).push(handler);
    return this;
  };
  CardElement.prototype.addEventListener = CardElement.prototype.on;
  CardElement.prototype.once = function (event, handler) {
    var self = this;
    var wrapped = function (payload) {
      self.off(event, wrapped);
      handler(payload);
    };
    return this.on(event, wrapped);
  };
  CardElement.prototype.off = function (event, handler) {
    var list = this._handlers[event] || [];
    this._handlers[event] = handler
      ? list.filter(function (h) {
          return h !== handler;
        })
      : [];
    return this;
  };
  CardElement.prototype.removeEventListener = CardElement.prototype.off;
  CardElement.prototype.update = function (options) {
    var postalBefore = this._postal();
    for (var k in options || {}) this._options[k] = options[k];
    if (this._node && postalBefore !== this._postal()) {
      var node = this._node;
      this.unmount();
      this.mount(node);
    }
  };
  CardElement.prototype.focus = function () {
    var input = this._root && this._root.querySelector('input');
    if (input) input.focus();
  };
  CardElement.prototype.blur = function () {
    var active = document.activeElement;
    if (active && this._root && this._root.contains(active)) active.blur();
  };
  CardElement.prototype.clear = function () {
    this._state = { number: '', expiry: '', cvc: '', postal: '' };
    if (this._root) {
      var inputs = this._root.querySelectorAll('input');
      for (var i = 0; i < inputs.length; i += 1) inputs[i].value = '';
    }
    this._changed();
  };

  var Elements = function (stripe, options) {
    this._stripe = stripe;
    this._options = options || {};
    this._created = {};
  };
  Elements.prototype.create = function (type, options) {
    if (type !== 'card') throw new Error('The Stripe.js test double supports the card Element only (asked for ' + type + ').');
    if (this._created[type]) throw new Error('Can only create one Element of type ' + type + '.');
    var element = new CardElement(type, options);
    element._elements = this;
    this._created[type] = element;
    return element;
  };
  Elements.prototype._forget = function (element) {
    if (this._created[element._type] === element) delete this._created[element._type];
  };
  /** Takes a type ('card') or a react-stripe-js component (its __elementType). */
  Elements.prototype.getElement = function (type) {
    var name = typeof type === 'string' ? type : type && type.__elementType;
    return this._created[name] || null;
  };
  Elements.prototype.update = function (options) {
    for (var k in options || {}) this._options[k] = options[k];
  };
  Elements.prototype.fetchUpdates = function () {
    return Promise.resolve({});
  };
  Elements.prototype.submit = function () {
    return Promise.resolve({});
  };

  // ------------------------------------------------------------------ 3-D Secure (test mode page)

  /** Stripe's test-mode authentication page: the test clicks 'Complete' or 'Fail'. */
  var challenge = function (paymentIntentId) {
    return new Promise(function (resolve) {
      var overlay = document.createElement('div');
      overlay.setAttribute('role', 'dialog');
      overlay.setAttribute('aria-label', '3D Secure 2 Test Page');
      overlay.setAttribute('data-stripe-double', 'three-d-secure');
      overlay.style.cssText =
        'position:fixed;inset:0;z-index:' + CHALLENGE_Z + ';display:grid;place-items:center;background:rgba(0,0,0,.5);font:16px sans-serif';
      var box = document.createElement('div');
      box.style.cssText = 'background:#fff;padding:24px;border-radius:8px;width:360px;text-align:center';
      var title = document.createElement('h2');
      title.textContent = '3D Secure 2 Test Page';
      var text = document.createElement('p');
      text.textContent = 'Authenticate the payment ' + paymentIntentId + ' (Stripe test mode).';
      box.appendChild(title);
      box.appendChild(text);
      var button = function (label, outcome) {
        var b = document.createElement('button');
        b.type = 'button';
        b.textContent = label;
        b.style.cssText = 'margin:8px;padding:8px 20px';
        b.addEventListener('click', function () {
          overlay.parentNode.removeChild(overlay);
          resolve(outcome);
        });
        box.appendChild(b);
      };
      button('Complete', true);
      button('Fail', false);
      overlay.appendChild(box);
      document.body.appendChild(overlay);
    });
  };

  // ------------------------------------------------------------------ the Stripe object

  var StripeDouble = function (publishableKey, options) {
    if (!(this instanceof StripeDouble)) return new StripeDouble(publishableKey, options);
    if (typeof publishableKey !== 'string' || !/^pk_(test|live)_/.test(publishableKey)) {
      throw new Error('Invalid value for Stripe(): apiKey should be a publishable key (pk_test_…). You specified: ' + publishableKey + '.');
    }
    this._key = publishableKey;
    this._account = (options && options.stripeAccount) || null;
    log.calls.push({ method: 'Stripe', publishableKey: publishableKey, stripeAccount: this._account });
  };
  StripeDouble.version = 'endive';
  StripeDouble.prototype._registerWrapper = function (wrapper) {
    log.wrappers.push(wrapper);
  };
  StripeDouble.prototype.registerAppInfo = function (info) {
    log.appInfo.push(info);
  };
  StripeDouble.prototype.elements = function (options) {
    return new Elements(this, options);
  };

  /** A form POST to the test server with the publishable key in the body, as Stripe.js sends it. */
  StripeDouble.prototype._post = function (path, fields) {
    var body = { key: this._key };
    if (this._account) body._stripe_account = this._account;
    for (var k in fields) body[k] = fields[k];
    return fetch(API + path, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: formBody(body),
    }).then(function (res) {
      return res.json().then(function (json) {
        return { status: res.status, body: json };
      });
    });
  };

  StripeDouble.prototype.createPaymentMethod = function (a, b, c) {
    // Both forms: createPaymentMethod({ type, card, billing_details }) and createPaymentMethod('card', element, data).
    var params = typeof a === 'string' ? Object.assign({ type: a, card: b }, c || {}) : a || {};
    log.calls.push({ method: 'createPaymentMethod', type: params.type });
    if (params.type !== 'card')
      return Promise.resolve({ error: err('invalid_request_error', 'parameter_invalid', 'The Stripe.js test double creates card payment methods only.') });
    var element = params.card;
    if (!(element instanceof CardElement)) {
      return Promise.resolve({
        error: err('invalid_request_error', 'parameter_invalid', 'Invalid value for createPaymentMethod: card should be a card Element.'),
      });
    }
    if (element._destroyed || !element._root) {
      return Promise.resolve({
        error: err(
          'invalid_request_error',
          'parameter_invalid',
          'We could not retrieve data from the specified Element. Please make sure the Element you are attempting to use is still mounted.',
        ),
      });
    }
    var v = validate(element._state, element._postal());
    if (!v.complete) return Promise.resolve({ error: v.error });
    var fields = { type: 'card', card: v.card };
    if (params.billing_details) fields.billing_details = params.billing_details;
    if (element._postal()) fields.billing_details = Object.assign({}, fields.billing_details, { address: { postal_code: element._state.postal } });
    return this._post('/v1/payment_methods', fields).then(function (res) {
      return res.status === 200 ? { paymentMethod: res.body } : { error: res.body.error };
    }, networkError);
  };

  StripeDouble.prototype.createToken = function () {
    return Promise.resolve({
      error: err('invalid_request_error', 'unsupported', 'The Stripe.js test double does not create tokens; use createPaymentMethod.'),
    });
  };

  /**
   * 3-D Secure for a payment intent the app's API answered with: the test-mode authentication page,
   * then the test server's bank. Stripe.js would also attach a new card here; the app never asks it to.
   */
  StripeDouble.prototype.confirmCardPayment = function (clientSecret, data) {
    log.calls.push({ method: 'confirmCardPayment', clientSecret: clientSecret });
    var m = /^(pi_[^_]+)_secret_/.exec(String(clientSecret || ''));
    if (!m)
      return Promise.resolve({
        error: err('invalid_request_error', 'parameter_invalid', 'Invalid value for confirmCardPayment intent secret: value should be a client_secret string.'),
      });
    if (data && data.payment_method) {
      return Promise.resolve({
        error: err('invalid_request_error', 'unsupported', 'The Stripe.js test double confirms with the attached card only (no payment_method).'),
      });
    }
    var id = m[1];
    return challenge(id).then(function (approved) {
      if (!approved) {
        return {
          error: Object.assign(
            err(
              'invalid_request_error',
              'payment_intent_authentication_failure',
              'We are unable to authenticate your payment method. Please choose a different payment method and try again.',
            ),
            {
              payment_intent: { id: id, object: 'payment_intent', status: 'requires_payment_method' },
            },
          ),
        };
      }
      return fetch(API + '/_control/complete-3ds', {
        method: 'POST',
        // text/plain keeps it a simple request (no CORS preflight); the control API reads JSON either way.
        headers: { 'Content-Type': 'text/plain' },
        body: JSON.stringify({ payment_intent: id }),
      }).then(function (res) {
        return res.json().then(function (json) {
          if (res.status !== 200)
            return { error: err('invalid_request_error', 'payment_intent_unexpected_state', json.error || 'The payment could not be confirmed.') };
          return { paymentIntent: json.payment_intent };
        });
      }, networkError);
    });
  };
  StripeDouble.prototype.handleCardAction = function (clientSecret) {
    return this.confirmCardPayment(clientSecret);
  };

  window.Stripe = StripeDouble;
})();
