/**
 * The findings of the security review (five numbered, eight lower, and one the suite found), each with the failing-first
 * test(s) that cover it. The summary line counts the findings; findings.test.ts keeps the list
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
    finding: "a second tab's refused refresh cleared the cookie",
    tests: [{ file: 'api/auth-hardening.test.ts', test: 'does not clear the cookie the first tab just got' }],
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
];

/**
 * Holes this suite found that no one has fixed yet: each is an `it.failing` test, which passes
 * while the hole is there and fails once it is closed (then it becomes a plain test and moves up).
 */
export const OPEN_FINDINGS: Finding[] = [];
