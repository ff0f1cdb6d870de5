import { describe, expect, it } from 'vitest';
import { calendarDateIn, dateOfBirthProblem, isFinishedStatus, detailsFormProblems, isCalendarDate, verificationsAddressOf, verificationsQueryOf } from '../../src/domain/verifications.ts';
import { refCodeErrorText } from '../../src/machines/verification-list.machine.ts';
import { HttpError } from '../../src/services/http.ts';

/** Issue 39 point 3 (SUV §5): the date-of-birth rule the wizard and the server share. */
describe('a date of birth must exist and be in the past', () => {
  const today = '2026-11-29';
  it('days that exist, leap years by the Gregorian rule', () => {
    for (const day of ['1980-02-28', '1980-02-29', '2000-02-29', '1981-04-30', '1999-12-31', '2026-01-31']) expect(isCalendarDate(day), day).toBe(true);
    for (const day of ['1980-02-30', '1981-02-29', '1900-02-29', '2100-02-29', '1981-04-31', '1980-13-01', '1980-00-10', '1980-01-00', '1980-1-10', '']) expect(isCalendarDate(day), day).toBe(false);
  });
  it('yesterday is accepted; today, tomorrow and 2099 are not', () => {
    expect(dateOfBirthProblem('2026-11-28', today)).toBeUndefined();
    expect(dateOfBirthProblem('2026-11-29', today)).toBe('must be a date in the past');
    expect(dateOfBirthProblem('2026-11-30', today)).toBe('must be a date in the past');
    expect(dateOfBirthProblem('2099-01-01', today)).toBe('must be a date in the past');
  });
  it('a day that does not exist is named so, even in the past', () => {
    expect(dateOfBirthProblem('1980-02-30', today)).toBe('is not a date that exists');
    expect(dateOfBirthProblem('1981-02-29', today)).toBe('is not a date that exists');
    expect(dateOfBirthProblem('1980-02-29', today)).toBeUndefined();
    expect(dateOfBirthProblem('2000-02-29', today)).toBeUndefined();
  });
  it('leaves a value of the wrong shape to the schema', () => {
    expect(dateOfBirthProblem('29/02/1980', today)).toBeUndefined();
  });
  it('the details form: the problem on its form path, nothing for a good or missing date', () => {
    expect(detailsFormProblems({ IndividualDetails: { DateOfBirth: '2099-01-01' } }, today)).toEqual({ 'IndividualDetails.DateOfBirth': 'must be a date in the past' });
    expect(detailsFormProblems({ IndividualDetails: { DateOfBirth: ' 1980-02-30 ' } }, today)).toEqual({ 'IndividualDetails.DateOfBirth': 'is not a date that exists' });
    expect(detailsFormProblems({ IndividualDetails: { DateOfBirth: '1980-04-23' } }, today)).toEqual({});
    expect(detailsFormProblems({ IndividualDetails: {} }, today)).toEqual({});
  });
  it('today is the calendar date in the given zone', () => {
    const instant = new Date('2026-11-28T14:30:00Z');
    expect(calendarDateIn('Australia/Sydney', instant)).toBe('2026-11-29');
    expect(calendarDateIn('UTC', instant)).toBe('2026-11-28');
  });
});

describe('the Verifications list in its address (issue 39 point 10)', () => {
  const both = ['Company', 'Individual'] as const;
  const read = (query: string, services: readonly ('Company' | 'Individual')[] = both) => verificationsAddressOf(services, new URLSearchParams(query));
  it('reads the tab, page and keyword; defaults where absent', () => {
    expect(read('service=Individual&page=3&q=%20smith%20')).toEqual({ service: 'Individual', page: 3, search: 'smith' });
    expect(read('')).toEqual({ service: 'Company', page: 1, search: '' });
  });
  it('a tab the claims do not permit is the first permitted; a page that is not a whole number from 1 is page 1', () => {
    expect(read('service=Company', ['Individual'])).toEqual({ service: 'Individual', page: 1, search: '' });
    expect(read('service=Other')).toMatchObject({ service: 'Company' });
    for (const page of ['0', '-2', '1.5', 'x', '100001']) expect(read(`page=${page}`).page, page).toBe(1);
    expect(read('page=100000').page).toBe(100000);
  });
  it('writes only what differs from the defaults, as /users does', () => {
    expect(verificationsQueryOf(both, { service: 'Company', page: 1, search: '' })).toBe('');
    expect(verificationsQueryOf(both, { service: 'Individual', page: 2, search: 'C601' })).toBe('?service=Individual&page=2&q=C601');
    expect(verificationsQueryOf(['Individual'], { service: 'Individual', page: 1, search: '' })).toBe('');
  });
});

describe('a reference code that is not saved says why (issue 39 point 11)', () => {
  it('the server\'s reason for a 400, else that it could not be saved', () => {
    expect(refCodeErrorText(new HttpError(400, '/x', { message: 'ref_code: at most 100 characters' }))).toBe('The reference code was not saved: at most 100 characters.');
    expect(refCodeErrorText(new HttpError(500, '/x', { message: 'boom' }))).toBe('The reference code could not be saved. Please try again.');
    expect(refCodeErrorText(new Error('offline'))).toBe('The reference code could not be saved. Please try again.');
  });
});

describe('which records have a finished detail page (issue 39 reading, decision 011)', () => {
  it('every status with a completion: Complete, Failed and Successful, in either spelling', () => {
    for (const status of ['Complete', 'success', 'Failed', 'fail', 'Successful']) expect(isFinishedStatus(status), status).toBe(true);
    for (const status of ['Pending', 'pending']) expect(isFinishedStatus(status), status).toBe(false);
  });
});
