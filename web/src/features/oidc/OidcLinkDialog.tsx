import { Type } from '@sinclair/typebox';
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
  const params = { params: { path: { id: user.id } } };
  const identity = useOidcIdentity(user.id);
  const form = useSchemaForm(LinkForm, { subject: '' }, { trim: ['subject'] });
  const linking = useLinkOidcIdentity(() => onSaved(`${fullName(user)} is now linked to single sign-on.`));
  const unlinking = useUnlinkOidcIdentity(() => onSaved(`${fullName(user)} is no longer linked to single sign-on.`));
  const failure = errorText(linking.error ?? unlinking.error, 'This user');

  return (
    <Dialog title={`Single sign-on of ${fullName(user)}`} onClose={onClose}>
      {failure && <Alert kind="error">{failure}</Alert>}
      <Loaded query={identity} label="Loading…" subject="This user">
        {(link) =>
          link.linked ? (
            <form
              onSubmit={(event) => {
                event.preventDefault();
                unlinking.mutate(params);
              }}
              className="stack"
            >
              <p>
                Linked to the identity <code>{link.subject}</code> at {link.issuer}.
              </p>
              <FormButtons className="dialog-actions" onCancel={onClose} cancelLabel="Close" busy={unlinking.isPending} busyLabel="Unlinking…">
                Unlink
              </FormButtons>
            </form>
          ) : (
            <form onSubmit={form.handleSubmit((body) => linking.mutate({ ...params, body }))} noValidate className="stack">
              <p>
                Not linked. The first single sign-on links an account by its e-mail only when the provider has verified it and the account has no password or
                directory sign-in; otherwise link it here.
              </p>
              <TextField label="Subject (sub) at the identity provider" {...form.field('subject')} hint="Shown in the person's details at the provider." />
              <FormButtons className="dialog-actions" onCancel={onClose} busy={linking.isPending} busyLabel="Linking…">
                Link
              </FormButtons>
            </form>
          )
        }
      </Loaded>
    </Dialog>
  );
}
