/**
 * The findings of the security reviews (round one: five numbered, eight lower, and one the suite
 * found; round two: eleven, prefixed R2; round three: six, prefixed R3), each with the failing-first test(s) that cover it. The summary line counts the findings; findings.test.ts keeps the list
 * honest (every named test exists and is not skipped).
 */
export interface Finding {
  id: string;
  finding: string;
  tests: Array<{ file: string; test: string }>;
}

export const FINDINGS: Finding[] = [
  {
    id: '1',
    finding: "Strapi's super admin could be claimed by anyone (POST /admin/register-admin)",
    tests: [
      { file: 'api/cms-admin.test.ts', test: 'refuses anonymous first-admin registration' },
      { file: 'security/route-matrix.test.ts', test: 'never offers or accepts the first-admin registration' },
    ],
  },
  {
    id: '2',
    finding: 'resume rules: a paid plan resumed without payment; an admin-cancelled subscription resumed by its user',
    tests: [
      { file: 'api/billing-integrity.test.ts', test: 'an unpaid one-time plan retired by a switch' },
      { file: 'api/billing-integrity.test.ts', test: 'a subscription an administrator cancelled cannot be resumed by its user' },
    ],
  },
  {
    id: '3',
    finding: 'parallel subscribes billed twice',
    tests: [{ file: 'api/billing-integrity.test.ts', test: 'makes one Stripe subscription and one charge' }],
  },
  { id: '4', finding: 'a deleted user kept being billed', tests: [{ file: 'api/user-deletion.test.ts', test: 'stops their Stripe billing first' }] },
  { id: '5', finding: 'anyone could lock any account out', tests: [{ file: 'api/rate-limit.test.ts', test: "leaves the owner's own address alone" }] },
  {
    id: 'L1',
    finding: 'reset links readable in the outbox',
    tests: [{ file: 'api/auth-hardening.test.ts', test: 'keeps no readable reset link once the mail is sent' }],
  },
  {
    id: 'L2',
    finding: 'update package URL not pinned to the feed, redirects followed',
    tests: [{ file: 'api/updates.test.ts', test: 'does not follow a redirect of the package download' }],
  },
  {
    id: 'L3',
    finding: 'funnel limits exceeded in parallel',
    tests: [{ file: 'api/funnel-limits-race.test.ts', test: 'six parallel creations on a one-funnel plan' }],
  },
  {
    id: 'L4',
    finding: "a second tab's refused refresh cleared the cookie the first tab just got",
    tests: [{ file: 'api/auth-hardening.test.ts', test: 'inside the grace window gets its own pair; the first stays good' }],
  },
  {
    id: 'L5',
    finding: 'refresh cookie Secure flag followed proxy headers',
    tests: [{ file: 'api/auth-hardening.test.ts', test: 'is Secure exactly when PUBLIC_URL is https' }],
  },
  {
    id: 'L6',
    finding: 'registration mail with attacker-chosen names of any length',
    tests: [{ file: 'api/auth-hardening.test.ts', test: 'caps the length of names' }],
  },
  {
    id: 'L7',
    finding: 'two first registrations could both become admin',
    tests: [{ file: 'api/first-admin.test.ts', test: 'is the one administrator even when five people register' }],
  },
  {
    id: 'L8',
    finding: 'password change left reset links valid',
    tests: [{ file: 'api/auth-hardening.test.ts', test: 'stop working once the password is changed' }],
  },
  {
    id: 'S1',
    finding: 'logout left the access token it was called with valid until it expired',
    tests: [{ file: 'security/tokens.test.ts', test: 'logout also ends the access token it was called with' }],
  },
  {
    id: 'L9',
    finding: 'parallel registrations with one email made several accounts (PostgreSQL)',
    tests: [{ file: 'api/auth-register.test.ts', test: 'makes one account of five registrations with the same email at once' }],
  },
  {
    id: 'R2-1',
    finding: "Strapi's super admin claimable through another spelling of /admin/register-admin (case, trailing slash)",
    tests: [
      { file: 'security/path-spellings.test.ts', test: 'refuses the first-admin registration in every spelling and /admin/init never offers the seat' },
      {
        file: 'security/path-spellings.test.ts',
        test: "refuses every guarded route of Strapi's admin API in every spelling exactly as in its canonical spelling",
      },
      { file: 'security/path-spellings.test.ts', test: 'refuses every /api route with an access rule in every spelling exactly as in its canonical spelling' },
    ],
  },
  {
    id: 'R2-2',
    finding: "an integrator's API token reached Strapi's upload, email and content-type-builder APIs; /uploads served pages and scripts on the app's origin",
    tests: [
      {
        file: 'security/api-tokens.test.ts',
        test: 'open nothing else: every registered /api and admin route answers a token holder as it answers a visitor without one',
      },
      { file: 'security/api-tokens.test.ts', test: 'cannot upload a page or a script, however the path is spelled' },
      {
        file: 'security/api-tokens.test.ts',
        test: 'cannot list, read or delete stored files, read the content types, or send mail, however the path is spelled',
      },
      { file: 'security/uploads-serving.test.ts', test: 'serves every file left there so that nothing in it can run, however the path is spelled' },
      { file: 'e2e/uploads-serving.test.ts', test: 'an app page that pulls in the uploaded script or frames the uploaded page runs neither' },
    ],
  },
  {
    id: 'R2-3',
    finding: 'anyone could fill the disk: multipart bodies were written to the temp directory on every route, before authentication, and never removed',
    tests: [
      { file: 'security/bodies.test.ts', test: 'refuses a multipart body on every other route before reading it, anonymous or signed in, /api or not' },
      { file: 'security/bodies.test.ts', test: 'after creators’ uploads: stored, refused, oversized, too many, anonymous, unverified' },
      { file: 'security/bodies.test.ts', test: 'after the admin’s logo and favicon uploads' },
    ],
  },
  {
    id: 'R2-4',
    finding: "login CSRF: /api/auth/login and /register took form-encoded bodies from another site's page",
    tests: [
      { file: 'security/bodies.test.ts', test: 'every /api write route takes JSON only' },
      { file: 'security/bodies.test.ts', test: 'the auth endpoints take no form, text or multipart body: nobody is signed in or registered by one' },
      { file: 'security/bodies.test.ts', test: 'the auth endpoints refuse another site (Origin, or Sec-Fetch-Site without one)' },
    ],
  },
  {
    id: 'R2-5',
    finding: 'a branch URL the editor accepts was too wide for its column: the click, and its whole group-commit batch, failed on PostgreSQL',
    tests: [
      { file: 'api/stored-widths.test.ts', test: 'stores every schema maximum in a column that holds it' },
      {
        file: 'security/ingest-integrity.test.ts',
        test: 'stores a click on a branch whose link is as long as the editor allows, with 100 other viewers’ clicks',
      },
      { file: 'security/ingest-integrity.test.ts', test: 'drops and counts a row the database refuses, and stores and acknowledges every other' },
    ],
  },
  {
    id: 'R2-6',
    finding: "anyone could write invented branches, targets and watch times into a creator's analytics and webhooks",
    tests: [
      { file: 'security/ingest-integrity.test.ts', test: 'invented branches, in every form' },
      { file: 'security/ingest-integrity.test.ts', test: 'invented targets, and one branch’s target on another' },
      { file: 'security/ingest-integrity.test.ts', test: 'times a viewer could not have reached' },
      { file: 'security/ingest-integrity.test.ts', test: 'replays of event ids already used, whatever they now say' },
    ],
  },
  {
    id: 'R2-7',
    finding: 'image decompression bomb: a 249 KB PNG of 16000×16000 pixels took 1.2 GB to process',
    tests: [
      { file: 'security/image-bombs.test.ts', test: 'an image at the limit is accepted, a complete bomb refused' },
      { file: 'security/image-bombs.test.ts', test: 'stays bounded while bombs and legitimate uploads arrive together' },
    ],
  },
  {
    id: 'R2-8',
    finding: 'deleting a user while they subscribed left an active paid Stripe subscription behind (PostgreSQL)',
    tests: [
      { file: 'api/user-deletion.test.ts', test: 'never leaves a live Stripe subscription for the deleted user, and never answers 500 (10 parallel rounds)' },
    ],
  },
  {
    id: 'R2-9',
    finding: 'zero- and three-decimal currencies were charged 100× or 10× wrong',
    tests: [
      { file: 'api/billing-currencies.test.ts', test: 'mirrored and charged at Stripe as' },
      { file: 'api/billing-currencies.test.ts', test: "replaces a Stripe price that charges another amount than the plan's" },
    ],
  },
  {
    id: 'R2-11b',
    finding: 'Stripe idempotency keys were not unique per install (two installs on one Stripe account collided)',
    tests: [
      { file: 'api/billing-installs.test.ts', test: 'makes each its own customer and subscription at Stripe (idempotency keys carry the install id)' },
      { file: 'api/billing-installs.test.ts', test: "writes nothing here for another install's subscription" },
    ],
  },
  {
    id: 'R2-11c',
    finding: "the Stripe Connect state was reusable and not tied to the admin's session",
    tests: [
      { file: 'api/stripe-admin.test.ts', test: 'uses a state once: the same state again, even from the same browser, connects nothing' },
      { file: 'api/stripe-admin.test.ts', test: "works only in the browser of the admin who started it: another admin's browser, or none, connects nothing" },
      { file: 'api/stripe-admin.test.ts', test: 'dies with the session that started it (signed out) and when it expires' },
    ],
  },
  {
    id: 'R2-10',
    finding: 'anyone could lock a user out of password recovery (one budget per email for every address; each request revoked mailed links)',
    tests: [
      { file: 'api/password-recovery-limits.test.ts', test: "bogus resets for the account from other addresses leave the owner's link working" },
      { file: 'api/password-recovery-limits.test.ts', test: "requests from another address neither revoke a mailed link nor use up the owner's budget" },
      {
        file: 'api/password-recovery-limits.test.ts',
        test: 'parallel requests from many addresses mail at most a few live links, and the first one mailed still works',
      },
    ],
  },
  {
    id: 'R2-11a',
    finding: 'parallel wrong passwords passed the per-account limit on PostgreSQL',
    tests: [
      {
        file: 'api/rate-limit.test.ts',
        test: 'counts each attempt before the password is checked, so parallel wrong passwords get at most the budget of checks',
      },
    ],
  },
  {
    id: 'R2-11d',
    finding: 'webhook address checks missed IPv4 addresses carried in IPv6 (NAT64, 6to4, IPv4-translated)',
    tests: [{ file: 'unit/webhook-address.test.ts', test: 'judges URLs and DNS answers in every spelling' }],
  },
  {
    id: 'R2-11e',
    finding: 'a password changed in the /cms Content Manager left sessions alive',
    tests: [
      { file: 'api/auth-password-writes.test.ts', test: 'in the /cms Content Manager' },
      { file: 'api/auth-password-writes.test.ts', test: 'the Content Manager refuses a password over 72 bytes, like the API' },
    ],
  },
  {
    id: 'R2-11f',
    finding: 'passwords longer than 72 bytes were silently truncated by bcrypt',
    tests: [
      { file: 'api/auth-password-bytes.test.ts', test: 'changing the password refuses one over 72 bytes and keeps the old one' },
      { file: 'api/auth-password-bytes.test.ts', test: 'an admin cannot create an account with one' },
      { file: 'api/auth-password-bytes.test.ts', test: 'create-admin refuses one before writing anything' },
    ],
  },
  {
    id: 'R2-11g',
    finding: 'a malformed percent-escape (GET /build/%E0%A4%A) answered 500 with a stack in the log',
    tests: [
      {
        file: 'security/path-spellings.test.ts',
        test: 'answers 400 or 404 wherever it points (405 for a method it does not take), never a 500, and logs no stack',
      },
    ],
  },
  {
    id: 'R3-F1',
    finding: 'a 14 MB import file from an account with no plan, or 8 parallel 700 KB saves, held the event loop for seconds',
    tests: [
      { file: 'security/request-budget.test.ts', test: 'keeps the event loop under 100 ms p99 and memory bounded while heavy imports, saves and exports run' },
      { file: 'api/funnel-transfer.test.ts', test: 'an import from an account whose plan allows no funnel is refused before its file is read' },
      {
        file: 'api/funnel-transfer.test.ts',
        test: "a save to another tenant's funnel is a 404 before its body is read, and a malformed body of one's own a 400",
      },
    ],
  },
  {
    id: 'R3-F2',
    finding: 'an import stored every embedded image, shown or not, before the funnel limit was checked, and the files outlived it',
    tests: [
      { file: 'api/funnel-transfer.test.ts', test: 'stores only the images the funnel shows' },
      { file: 'api/funnel-transfer.test.ts', test: 'stores nothing, and leaves no file, on a dry run or an import refused before or after its images' },
      {
        file: 'api/funnel-transfer.test.ts',
        test: 'reuses an image of the same bytes an earlier import stored, and counts new images against the upload budget',
      },
      { file: 'api/funnel-transfer.test.ts', test: 'collects images no funnel shows once they are a day old' },
    ],
  },
  {
    id: 'R3-F3',
    finding: 'an export built the whole file in memory (107 MB for 40 images), unthrottled',
    tests: [
      { file: 'security/request-budget.test.ts', test: 'keeps the event loop under 100 ms p99 and memory bounded while heavy imports, saves and exports run' },
    ],
  },
  {
    id: 'R3-F4',
    finding: 'anonymous clicks with invented view ids counted as viewers and each queued a signed webhook delivery',
    tests: [
      { file: 'security/view-token.test.ts', test: 'random view ids, as the red team sent them: 10 requests of 100 clicks' },
      { file: 'security/view-token.test.ts', test: 'keeps the genuine events of a batch that mixes them with forged ones' },
    ],
  },
  {
    id: 'R3-F5',
    finding: "the CSV formula guard looked only at a cell's first character (`Ada;=HYPERLINK(…)` split on `;`)",
    tests: [{ file: 'api/analytics-csv.test.ts', test: 'lets no viewer-set variable start a formula, whatever a spreadsheet splits on; numbers stay numbers' }],
  },
  {
    id: 'R3-F6',
    finding: 'GET /build/… with a NUL, a path through a file or an over-long name answered 500 and logged a stack',
    tests: [
      { file: 'security/static-paths.test.ts', test: 'answer 400 or 404 for GET and HEAD, never a 500 or a stack, and log no stack' },
      { file: 'security/static-paths.test.ts', test: 'log one warning line per odd request, naming its method and path' },
    ],
  },
];

/**
 * Holes this suite found that no one has fixed yet: each is an `it.failing` test, which passes
 * while the hole is there and fails once it is closed (then it becomes a plain test and moves up).
 */
export const OPEN_FINDINGS: Finding[] = [];
