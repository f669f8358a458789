import { Type } from '@sinclair/typebox';
import Fastify from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { startTestI18n } from '../helpers/i18n.js';
import validation from '../../src/plugins/validation.js';
import { CreateDepartmentBody, CreateEquipmentBody } from '../../src/modules/inventory/inventory.schemas.js';
import { CreateReportBody } from '../../src/modules/reports/reports.schemas.js';
import { CreateUserBody } from '../../src/modules/users/users.schemas.js';
import { DEPARTMENT_RULES, DepartmentForm, EQUIPMENT_RULES, EquipmentForm, ROOM_RULES, RoomForm } from '../../web/src/features/inventory/forms.js';
import { NEW_PASSWORD_RULES, NewPassword } from '../../web/src/features/password/new-password.js';
import { PersonForm } from '../../web/src/features/users/person.js';
import { Email, EmailInput, PasswordInput, ReportDescription } from '../../web/src/lib/fields.js';
import { checkForm, passwordsMatch } from '../../web/src/lib/forms.js';

/**
 * The forms check what the server checks, with the server's own field schemas (src/shared/fields.ts),
 * and say what is wrong in sentences.
 */

// The field labels of the messages are English keys' values (docs/i18n.md); started here, not left to another file of the worker.
beforeAll(() => startTestI18n('en'));

/** What a schema checks (descriptions aside). */
const rules = (schema: object): unknown => JSON.parse(JSON.stringify(schema, (key, value: unknown) => (key === 'description' ? undefined : value)));

const person = { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', role: 'USER', enabled: true, ldap: false } as const;

describe('forms made of the server field schemas', () => {
  it('are the bodies the server takes, field for field', () => {
    expect(rules(DepartmentForm.properties)).toEqual(rules(CreateDepartmentBody.properties));
    expect(rules(EquipmentForm.properties)).toEqual(rules(CreateEquipmentBody.properties));
    expect(rules(PersonForm.properties)).toMatchObject(rules(CreateUserBody.properties) as object);
    expect(rules(ReportDescription())).toEqual(rules(CreateReportBody.properties.description));
  });

  it('accept what may be sent, as it will be sent', () => {
    expect(checkForm(DepartmentForm, { location: ' Berlin ', building: 'HQ', floor: -1 }, DEPARTMENT_RULES)).toEqual({
      values: { location: 'Berlin', building: 'HQ', floor: -1 },
      errors: {},
    });
    expect(checkForm(PersonForm, person).errors).toEqual({});
  });

  it('name every field that is missing, blank or too long', () => {
    expect(checkForm(DepartmentForm, { location: '', building: '   ', floor: 1.5 }, DEPARTMENT_RULES).errors).toEqual({
      location: 'Location is required.',
      building: 'Building is required.',
      floor: 'Floor must be a whole number.',
    });
    expect(checkForm(PersonForm, { ...person, firstName: ' ', lastName: 'x'.repeat(201) }).errors).toEqual({
      firstName: 'First name is required.',
      lastName: 'Last name may have at most 200 characters.',
    });
    expect(checkForm(EquipmentForm, { name: 'Dock', type: 'MONITOR', description: 'x'.repeat(10_001) }, EQUIPMENT_RULES).errors).toEqual({
      description: 'Description may have at most 10,000 characters.',
    });
  });

  it('use the labels the form shows', () => {
    expect(checkForm(RoomForm, { name: '', available: true }, ROOM_RULES).errors).toEqual({ name: 'Room name is required.' });
    expect(checkForm(EquipmentForm, { name: '', type: 'TOASTER' as never, description: '' }, EQUIPMENT_RULES).errors).toEqual({
      name: 'Equipment name is required.',
      type: 'Choose the equipment type.',
    });
  });

  it('bound floors where the server does (an empty number field is no number)', () => {
    expect(checkForm(DepartmentForm, { location: 'B', building: 'H', floor: 10_001 }).errors).toEqual({ floor: 'Floor must be between -1,000 and 10,000.' });
    expect(checkForm(DepartmentForm, { location: 'B', building: 'H', floor: Number.NaN }).errors).toEqual({ floor: 'Floor must be a whole number.' });
  });

  it('want a new password of 8 to 256 characters, typed twice the same', () => {
    const check = (password: string, confirm = password) => checkForm(NewPassword, { password, confirm }, NEW_PASSWORD_RULES).errors;
    expect(check('short')).toEqual({ password: 'New password needs at least 8 characters.' });
    expect(check('x'.repeat(257))).toEqual({ password: 'New password may have at most 256 characters.' });
    expect(check('long enough', 'long enougH')).toEqual({ confirm: 'The two passwords differ.' });
    expect(check('long enough')).toEqual({});
  });

  it('want the sign-in fields and the current password filled in', () => {
    const SignIn = Type.Object({ email: EmailInput(), password: PasswordInput() });
    expect(checkForm(SignIn, { email: '  ', password: '' }, { trim: ['email'] }).errors).toEqual({
      email: 'E-mail is required.',
      password: 'Password is required.',
    });
    const Change = Type.Object({ currentPassword: PasswordInput(), newPassword: Type.String(), confirm: Type.String() });
    expect(checkForm(Change, { currentPassword: '', newPassword: 'a', confirm: 'a' }, { refine: passwordsMatch('newPassword') }).errors).toEqual({
      currentPassword: 'Current password is required.',
    });
  });
});

describe('e-mail addresses', () => {
  const CANDIDATES = [
    'ada@example.com',
    'ADA.Lovelace+desk@mail.example.co.uk',
    'ada@example',
    'ada lovelace@example.com',
    'ada@@example.com',
    '@example.com',
    'ada@exa_mple.com',
    'ada@-example.com',
    "o'brien@example.ie",
    'ada@example.com.',
    'ada.@example.com',
    'ada@例え.jp',
  ];

  it('are judged by the forms exactly as by the server', async () => {
    const server = Fastify({ logger: false });
    await server.register(validation);
    server.post('/check', { schema: { body: Type.Object({ email: Email() }) } }, async () => ({ ok: true }));
    await server.ready();
    try {
      for (const email of CANDIDATES) {
        const answer = await server.inject({ method: 'POST', url: '/check', payload: { email } });
        const formErrors = checkForm(Type.Object({ email: Email() }), { email }).errors;
        expect({ email, accepted: formErrors.email === undefined }).toEqual({ email, accepted: answer.statusCode === 200 });
      }
    } finally {
      await server.close();
    }
  });

  it('get a sentence with an example when malformed', () => {
    expect(checkForm(PersonForm, { ...person, email: 'ada@example' }).errors).toEqual({ email: 'Enter a valid e-mail address, like name@example.com.' });
  });
});
