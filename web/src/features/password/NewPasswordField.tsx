import type { ComponentProps } from 'react';
import { useTranslation } from 'react-i18next';
import { TextField } from '../../components/ui.js';
import { PASSWORD_MIN } from '../../lib/fields.js';

/** The "New password" input of every form that sets one, with the length rule as its hint (and `note` after it). */
export function NewPasswordField({ note, ...input }: Omit<ComponentProps<typeof TextField>, 'label' | 'type' | 'autoComplete' | 'hint'> & { note?: string }) {
  const { t } = useTranslation('auth');
  return (
    <TextField
      label={t('password.new')}
      type="password"
      autoComplete="new-password"
      {...input}
      hint={`${t('password.hint', { min: PASSWORD_MIN })}${note ? ` ${note}` : ''}`}
    />
  );
}
