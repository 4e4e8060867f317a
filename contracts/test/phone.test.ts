import { describe, expect, it } from 'vitest';
import { displayPhone, nigerianE164, whatsAppLink } from '../src/phone.js';

describe('Nigerian phone numbers to E.164', () => {
  it.each([
    ['08031234567', '2348031234567'],
    ['0803 123 4567', '2348031234567'],
    ['0803-123-4567', '2348031234567'],
    ['(0803) 123 4567', '2348031234567'],
    ['+2348031234567', '2348031234567'],
    ['+234 803 123 4567', '2348031234567'],
    ['+234 0803 123 4567', '2348031234567'],
    ['2348031234567', '2348031234567'],
    ['002348031234567', '2348031234567'],
    ['09012345678', '2349012345678'],
    ['07061234567', '2347061234567'],
  ])('%s → %s', (input, expected) => expect(nigerianE164(input)).toBe(expected));

  it.each(['', 'abc', '0803123456', '080312345678', '+447911123456', '+1 202 555 0143', '00000000000', '+234 003 123 4567', '0803x1234567'])(
    'refuses %j',
    (input) => expect(nigerianE164(input)).toBeNull(),
  );

  it('shows and links a number', () => {
    expect(displayPhone('2348031234567')).toBe('+234 803 123 4567');
    expect(whatsAppLink('0803 123 4567', 'Hello & 5 kg?')).toBe('https://wa.me/2348031234567?text=Hello%20%26%205%20kg%3F');
    expect(whatsAppLink('12345', 'x')).toBeNull();
  });
});
