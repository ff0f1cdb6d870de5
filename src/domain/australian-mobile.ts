/**
 * SUV §5/§9 the Australian mobile rule, shared by the Invite User modal and the server (issue 38
 * point 12: the tenant's AustralianMobileNumberOnly held in the browser only). A number starting 04
 * with exactly 10 digits once spaces are removed; the server also takes the same number in
 * international form (+61 4…), as the API may be called without the portal.
 */
export const isAustralianMobile = (number: string): boolean => /^(?:04|\+614)\d{8}$/.test(number.replace(/\s/g, ''));

/** The server's message, after the field's name ("MobileNumber: …"). */
export const australianMobileOnlyText = 'must be an Australian mobile number (04 and 8 more digits)';
