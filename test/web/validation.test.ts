process.env.TZ = 'Europe/Berlin';

import { describe, expect, it } from 'vitest';
import {
  hasErrors,
  validateDepartment,
  validateEmail,
  validateEquipment,
  validateImage,
  validateName,
  validateNewPassword,
  validatePasswordChange,
  validatePerson,
  validateReport,
  validateSignIn,
  validateWindow,
  type FormErrors,
} from '../../web/src/lib/validation.js';

const NOW = new Date('2030-07-15T10:00:00Z'); // 12:00 in Berlin

describe('booking windows', () => {
  it('accepts a later window on one day', () => {
    expect(validateWindow({ date: '2030-07-16', start: '09:00', end: '12:00' }, NOW)).toEqual({});
    expect(validateWindow({ date: '2030-07-15', start: '12:30', end: '13:00' }, NOW)).toEqual({});
  });

  it('wants the end after the start', () => {
    expect(validateWindow({ date: '2030-07-16', start: '12:00', end: '12:00' }, NOW)).toEqual({ end: 'The end must be after the start.' });
    expect(validateWindow({ date: '2030-07-16', start: '12:00', end: '09:00' }, NOW)).toEqual({ end: 'The end must be after the start.' });
  });

  it('refuses a window that has started, unless the past is allowed', () => {
    const started = { date: '2030-07-15', start: '11:00', end: '14:00' };
    expect(validateWindow(started, NOW)).toEqual({ start: 'This time has already started; choose a later one.' });
    expect(validateWindow(started, NOW, { allowPast: true })).toEqual({});
  });

  it('names each missing or malformed part', () => {
    expect(validateWindow({ date: '', start: '', end: '' }, NOW)).toEqual({ date: 'Choose a date.', start: 'Choose a start time.', end: 'Choose an end time.' });
    expect(validateWindow({ date: '2030-02-30', start: '09:00', end: '10:00' }, NOW)).toEqual({ date: 'Choose a date.' });
    expect(validateWindow({ date: '2030-07-16', start: '9:00', end: '25:00' }, NOW)).toEqual({ start: 'Choose a start time.', end: 'Choose an end time.' });
  });
});

describe('accounts', () => {
  it('needs both sign-in fields', () => {
    expect(validateSignIn({ email: ' ', password: '' })).toEqual({ email: 'E-mail is required.', password: 'Password is required.' });
    expect(validateSignIn({ email: 'a@b.c', password: 'x' })).toEqual({});
  });

  it('checks e-mail addresses loosely, like the service', () => {
    const check = (value: string) => {
      const errors: FormErrors = {};
      validateEmail(errors, value);
      return errors.email;
    };
    expect(check('ada@example.com')).toBeUndefined();
    expect(check('')).toBe('E-mail is required.');
    expect(check('ada@example')).toBe('Enter a valid e-mail address, like name@example.com.');
    expect(check('ada lovelace@example.com')).toBe('Enter a valid e-mail address, like name@example.com.');
    expect(check(`${'a'.repeat(195)}@x.com`)).toBe('Enter a valid e-mail address, like name@example.com.');
  });

  it('wants new passwords of 8 to 256 characters, typed twice the same', () => {
    expect(validateNewPassword({ password: 'short', confirm: 'short' })).toEqual({ password: 'Use at least 8 characters.' });
    expect(validateNewPassword({ password: 'x'.repeat(257), confirm: 'x'.repeat(257) })).toEqual({ password: 'Use at most 256 characters.' });
    expect(validateNewPassword({ password: 'long enough', confirm: 'long enougH' })).toEqual({ confirm: 'The two passwords differ.' });
    expect(validateNewPassword({ password: 'long enough', confirm: 'long enough' })).toEqual({});
  });

  it('wants the current password to change one', () => {
    expect(validatePasswordChange({ currentPassword: '', newPassword: 'long enough', confirm: 'long enough' })).toEqual({ currentPassword: 'Enter your current password.' });
    expect(validatePasswordChange({ currentPassword: 'old', newPassword: 'new', confirm: 'new' })).toEqual({ newPassword: 'Use at least 8 characters.' });
  });

  it('wants non-blank names of at most 200 characters', () => {
    expect(validatePerson({ firstName: ' ', lastName: 'x'.repeat(201), email: 'a@b.c' })).toEqual({
      firstName: 'First name is required.',
      lastName: 'Last name may have at most 200 characters.',
    });
    expect(hasErrors(validatePerson({ firstName: 'Ada', lastName: 'Lovelace' }))).toBe(false);
  });
});

describe('inventory and reports', () => {
  it('wants a location, a building and a whole floor number', () => {
    expect(validateDepartment({ location: 'Berlin', building: 'HQ', floor: '-1' })).toEqual({});
    expect(validateDepartment({ location: '', building: ' ', floor: '1.5' })).toEqual({
      location: 'Location is required.',
      building: 'Building is required.',
      floor: 'Floor must be a whole number (0 for the ground floor, negative below).',
    });
    expect(validateDepartment({ location: 'B', building: 'H', floor: '' }).floor).toBeDefined();
    expect(validateDepartment({ location: 'B', building: 'H', floor: '5000' })).toEqual({ floor: 'Floor must be between -1000 and 1000.' });
  });

  it('wants names for rooms, desks and equipment, and bounds descriptions', () => {
    expect(validateName({ name: '' }, 'Room name')).toEqual({ name: 'Room name is required.' });
    expect(validateEquipment({ name: 'Dock', description: '' })).toEqual({});
    expect(validateEquipment({ name: 'Dock', description: 'x'.repeat(10_001) })).toEqual({ description: 'Description may have at most 10,000 characters.' });
  });

  it('wants a report to say what and where', () => {
    expect(validateReport({ title: '', description: '', deskId: '' })).toEqual({
      title: 'Title is required.',
      description: 'Description is required.',
      deskId: 'Choose the desk that has the problem.',
    });
  });

  it('checks an image before uploading it', () => {
    expect(validateImage({ type: 'image/png', size: 1000 })).toBeUndefined();
    expect(validateImage({ type: 'image/svg+xml', size: 1000 })).toBe('Choose a PNG, JPEG or WebP image.');
    expect(validateImage({ type: 'image/jpeg', size: 5 * 1024 * 1024 + 1 })).toBe('The image is larger than 5 MB.');
  });
});
