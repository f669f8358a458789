import type { ComponentProps } from 'react';
import { TextField } from '../../components/ui.js';
import { PASSWORD_MIN } from '../../lib/fields.js';

/** The "New password" input of every form that sets one, with the length rule as its hint (and `note` after it). */
export function NewPasswordField({ note, ...input }: Omit<ComponentProps<typeof TextField>, 'label' | 'type' | 'autoComplete' | 'hint'> & { note?: string }) {
  return (
    <TextField
      label="New password"
      type="password"
      autoComplete="new-password"
      {...input}
      hint={`At least ${PASSWORD_MIN} characters.${note ? ` ${note}` : ''}`}
    />
  );
}
