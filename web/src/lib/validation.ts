import { localMoment, type LocalWindow } from './time.js';

/**
 * Checks made before a form is sent, mirroring the service's own rules so that people learn
 * about a mistake next to the field. The service checks again; its answer wins.
 */

/** Field name → message; empty when the form may be sent. */
export type FormErrors = Record<string, string>;

export const SHORT_TEXT_MAX = 200;
export const LONG_TEXT_MAX = 10_000;
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 256;
export const IMAGE_MAX_BYTES = 5 * 1024 * 1024;
export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp'];

export const hasErrors = (errors: FormErrors) => Object.keys(errors).length > 0;

function requiredText(errors: FormErrors, field: string, label: string, value: string, max = SHORT_TEXT_MAX) {
  if (value.trim() === '') errors[field] = `${label} is required.`;
  else if (value.length > max) errors[field] = `${label} may have at most ${max.toLocaleString('en-GB')} characters.`;
}

// The same loose shape the service accepts: something@something.something, no spaces.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function validateEmail(errors: FormErrors, value: string, field = 'email') {
  if (value.trim() === '') errors[field] = 'E-mail is required.';
  else if (!EMAIL.test(value.trim()) || value.length > SHORT_TEXT_MAX) errors[field] = 'Enter a valid e-mail address, like name@example.com.';
}

export function validateSignIn(input: { email: string; password: string }): FormErrors {
  const errors: FormErrors = {};
  if (input.email.trim() === '') errors.email = 'E-mail is required.';
  if (input.password === '') errors.password = 'Password is required.';
  return errors;
}

/** A new password and its repetition. */
export function validateNewPassword(input: { password: string; confirm: string }, field = 'password'): FormErrors {
  const errors: FormErrors = {};
  if (input.password.length < PASSWORD_MIN) errors[field] = `Use at least ${PASSWORD_MIN} characters.`;
  else if (input.password.length > PASSWORD_MAX) errors[field] = `Use at most ${PASSWORD_MAX} characters.`;
  else if (input.password !== input.confirm) errors.confirm = 'The two passwords differ.';
  return errors;
}

export function validatePasswordChange(input: { currentPassword: string; newPassword: string; confirm: string }): FormErrors {
  const errors = validateNewPassword({ password: input.newPassword, confirm: input.confirm }, 'newPassword');
  if (input.currentPassword === '') errors.currentPassword = 'Enter your current password.';
  return errors;
}

export function validatePerson(input: { firstName: string; lastName: string; email?: string }): FormErrors {
  const errors: FormErrors = {};
  requiredText(errors, 'firstName', 'First name', input.firstName);
  requiredText(errors, 'lastName', 'Last name', input.lastName);
  if (input.email !== undefined) validateEmail(errors, input.email);
  return errors;
}

export function validateDepartment(input: { location: string; building: string; floor: string }): FormErrors {
  const errors: FormErrors = {};
  requiredText(errors, 'location', 'Location', input.location);
  requiredText(errors, 'building', 'Building', input.building);
  if (!/^-?\d+$/.test(input.floor.trim())) errors.floor = 'Floor must be a whole number (0 for the ground floor, negative below).';
  else if (Math.abs(Number(input.floor)) > 1000) errors.floor = 'Floor must be between -1000 and 1000.';
  return errors;
}

export function validateName(input: { name: string }, label = 'Name'): FormErrors {
  const errors: FormErrors = {};
  requiredText(errors, 'name', label, input.name);
  return errors;
}

export function validateEquipment(input: { name: string; description: string }): FormErrors {
  const errors: FormErrors = {};
  requiredText(errors, 'name', 'Name', input.name);
  if (input.description.length > LONG_TEXT_MAX) errors.description = `Description may have at most ${LONG_TEXT_MAX.toLocaleString('en-GB')} characters.`;
  return errors;
}

export function validateReport(input: { title: string; description: string; deskId: string }): FormErrors {
  const errors: FormErrors = {};
  requiredText(errors, 'title', 'Title', input.title);
  requiredText(errors, 'description', 'Description', input.description, LONG_TEXT_MAX);
  if (input.deskId === '') errors.deskId = 'Choose the desk that has the problem.';
  return errors;
}

const isTimeOfDay = (value: string) => /^([01]\d|2[0-3]):[0-5]\d$/.test(value);

/**
 * A booking window on one local day. `now` rules out windows already started; the service
 * enforces its configured length and horizon limits itself.
 */
export function validateWindow(window: LocalWindow, now: Date, options: { allowPast?: boolean } = {}): FormErrors {
  const errors: FormErrors = {};
  const start = localMoment(window.date, window.start);
  const end = localMoment(window.date, window.end);
  if (!localMoment(window.date, '00:00')) errors.date = 'Choose a date.';
  if (!isTimeOfDay(window.start)) errors.start = 'Choose a start time.';
  if (!isTimeOfDay(window.end)) errors.end = 'Choose an end time.';
  if (start && end) {
    if (end.getTime() <= start.getTime()) errors.end = 'The end must be after the start.';
    else if (!options.allowPast && start.getTime() < now.getTime()) errors.start = 'This time has already started; choose a later one.';
  }
  return errors;
}

/** An image chosen for upload: type and size checked before sending. */
export function validateImage(file: { type: string; size: number }): string | undefined {
  if (!IMAGE_TYPES.includes(file.type)) return 'Choose a PNG, JPEG or WebP image.';
  if (file.size > IMAGE_MAX_BYTES) return 'The image is larger than 5 MB.';
  return undefined;
}
