import { describe, expect, it } from 'vitest';
import { lastActivityText, usersAddressOf, usersDocumentTitle, usersRequestOf, type UsersRequest } from '../../src/domain/users-address.ts';

/** SUV §2/§9: /users/{pageNo}?q=&rowsPerPage=, page 1 and 20 rows left out of the address. */
const request = (pageNo: number, rowsPerPage: number, query: string): UsersRequest => ({ pageNo, rowsPerPage, query });
const read = (address: string) => {
  const url = new URL(address, 'https://portal.test');
  return usersRequestOf(url.pathname.split('/')[2], url.searchParams);
};

describe('the users address (SUV §2, §9)', () => {
  it.each([
    [request(1, 20, ''), '/users'],
    [request(2, 20, ''), '/users/2'],
    [request(1, 50, ''), '/users?rowsPerPage=50'],
    [request(1, 20, 'lee'), '/users?q=lee'],
    [request(3, 10, 'olivia kelly'), '/users/3?q=olivia+kelly&rowsPerPage=10'],
    [request(1, 20, '   '), '/users'],
  ])('%o is %s', (value, address) => expect(usersAddressOf(value)).toBe(address));

  it.each([
    [request(1, 20, ''), '/users'],
    [request(7, 100, 'a&b=c?'), '/users/7?q=a%26b%3Dc%3F&rowsPerPage=100'],
    [request(2, 10, 'Ava Lee'), '/users/2?q=Ava+Lee&rowsPerPage=10'],
  ])('%o survives the round trip through its address', (value, address) => {
    expect(usersAddressOf(value)).toBe(address);
    expect(read(address)).toEqual(value);
  });

  it('an address without a page or a query reads as the defaults', () => expect(read('/users')).toEqual(request(1, 20, '')));

  // Anything unreadable falls back to its default rather than failing the page.
  it.each([
    ['/users/0', request(1, 20, '')],
    ['/users/-2', request(1, 20, '')],
    ['/users/1.5', request(1, 20, '')],
    ['/users/abc', request(1, 20, '')],
    ['/users/100001', request(1, 20, '')],
    ['/users/100000', request(100_000, 20, '')],
    ['/users?rowsPerPage=0', request(1, 20, '')],
    ['/users?rowsPerPage=101', request(1, 20, '')],
    ['/users?rowsPerPage=ten', request(1, 20, '')],
    ['/users?rowsPerPage=100', request(1, 100, '')],
    ['/users?rowsPerPage=1', request(1, 1, '')],
  ])('%s reads as %o', (address, value) => expect(read(address)).toEqual(value));
});

describe('the page title and Last Activity (SUV §2, §9)', () => {
  it('Users with the total, thousands separated', () => {
    expect(usersDocumentTitle(undefined)).toBe('Users');
    expect(usersDocumentTitle(0)).toBe('Users 0');
    expect(usersDocumentTitle(100_000)).toBe('Users 100,000');
  });

  it("a date, or 'Never logged in'", () => {
    expect(lastActivityText(null)).toBe('Never logged in');
    expect(lastActivityText(new Date(2026, 0, 5, 12).getTime() / 1000)).toBe('05 Jan 2026');
  });
});
