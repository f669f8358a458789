import { Type } from '@sinclair/typebox';
import { useTranslation } from 'react-i18next';
import type { User } from '../../api/types.js';
import { Alert, Dialog, FormButtons, Loaded, TextField } from '../../components/ui.js';
import { useSchemaForm } from '../../lib/forms.js';
import { errorText } from '../../lib/problems.js';
import { useLinkOidcIdentity, useOidcIdentity, useUnlinkOidcIdentity } from './queries.js';

const LinkForm = Type.Object({ subject: Type.String({ minLength: 1, maxLength: 255, title: 'Subject' }) });

const fullName = (user: Pick<User, 'firstName' | 'lastName'>) => `${user.firstName} ${user.lastName}`;

/**
 * Admin: link a user to an identity at the provider by its `sub`, or unlink it
 * (docs/behaviour.md#linking-identities-to-accounts).
 */
export function OidcLinkDialog({ user, onClose, onSaved }: { user: User; onClose: () => void; onSaved: (message: string) => void }) {
  const { t } = useTranslation('profile');
  const params = { params: { path: { id: user.id } } };
  const identity = useOidcIdentity(user.id);
  const form = useSchemaForm(LinkForm, { subject: '' }, { trim: ['subject'] });
  const linking = useLinkOidcIdentity(() => onSaved(t('oidcLink.linked', { name: fullName(user) })));
  const unlinking = useUnlinkOidcIdentity(() => onSaved(t('oidcLink.unlinked', { name: fullName(user) })));
  const failure = errorText(linking.error ?? unlinking.error, t('oidcLink.subject'));

  return (
    <Dialog title={t('oidcLink.title', { name: fullName(user) })} onClose={onClose}>
      {failure && <Alert kind="error">{failure}</Alert>}
      <Loaded query={identity} label={t('common:loading')} subject={t('oidcLink.subject')}>
        {(link) =>
          link.linked ? (
            <form
              onSubmit={(event) => {
                event.preventDefault();
                unlinking.mutate(params);
              }}
              className="stack"
            >
              <LinkedTo subject={link.subject ?? ''} issuer={link.issuer ?? ''} />
              <FormButtons
                className="dialog-actions"
                onCancel={onClose}
                cancelLabel={t('common:close')}
                busy={unlinking.isPending}
                busyLabel={t('oidcLink.unlinking')}
              >
                {t('oidcLink.unlink')}
              </FormButtons>
            </form>
          ) : (
            <form onSubmit={form.handleSubmit((body) => linking.mutate({ ...params, body }))} noValidate className="stack">
              <p>{t('oidcLink.notLinked')}</p>
              <TextField label={t('oidcLink.subjectLabel')} {...form.field('subject')} hint={t('oidcLink.subjectHint')} />
              <FormButtons className="dialog-actions" onCancel={onClose} busy={linking.isPending} busyLabel={t('oidcLink.linking')}>
                {t('oidcLink.link')}
              </FormButtons>
            </form>
          )
        }
      </Loaded>
    </Dialog>
  );
}

/** "Linked to the identity <code>sub</code> at issuer.": one message, the subject set in code. */
function LinkedTo({ subject, issuer }: { subject: string; issuer: string }) {
  const { t } = useTranslation('profile');
  const mark = '\u0000';
  const [before = '', after = ''] = t('oidcLink.linkedTo', { subject: mark, issuer }).split(mark);
  return (
    <p>
      {before}
      <code>{subject}</code>
      {after}
    </p>
  );
}
