import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { demoBannerLines, everyDemoAccount, tenantRoleNames } from '../../server/db/seed.ts';

/** The e-mail addresses in README's "Demo accounts" table. */
function readmeAccounts(): string[] {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const section = readme.split('## Demo accounts')[1]?.split('\n## ')[0] ?? '';
  const rows = section.split('\n').filter((line) => line.startsWith('| `'));
  return rows.flatMap((row) => [...(row.split('|')[1] ?? '').matchAll(/`([^`]+@[^`]+)`/g)].map((match) => match[1] ?? ''));
}

describe('demo accounts (issue 39 point 14)', () => {
  it('the README names ten accounts and the start banner lists every one of them', () => {
    const accounts = readmeAccounts();
    expect(accounts).toEqual([
      'admin@demo.test',
      'manager@demo.test',
      'staff@demo.test',
      'readonly@demo.test',
      'verifier@demo.test',
      'admin@acme.test',
      'reset@acme.test',
      'twostep@acme.test',
      'guesser@acme.test',
      'sessions@acme.test',
    ]);
    const banner = demoBannerLines().join('\n');
    for (const email of accounts) expect(banner).toContain(email);
    expect(everyDemoAccount.map((account) => account.email).sort()).toEqual([...accounts].sort());
  });

  it('every demo account holds one of the tenant’s four roles', () => {
    expect(tenantRoleNames).toEqual(['Admin Staff (Full Access)', 'Admin Staff (Read Only)', 'Application Manager', 'Staff']);
    for (const account of everyDemoAccount) expect({ email: account.email, role: tenantRoleNames.includes(account.roleName) }).toEqual({ email: account.email, role: true });
    expect(everyDemoAccount.find((account) => account.email === 'manager@demo.test')?.roleName).toBe('Application Manager');
  });
});
