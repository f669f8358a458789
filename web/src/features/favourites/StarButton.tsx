import { useTranslation } from 'react-i18next';
import { deskPhrase } from '../../lib/labels.js';
import { useStar, useUnstar } from './queries.js';
import './styles.css';

/**
 * The star of a desk on Find a desk (docs/favourites.md#favourite-desks): a toggle button, pressed
 * when the desk is a favourite; its name says which desk.
 */
export function StarButton({ desk, roomName, starred }: { desk: { id: string; name: string }; roomName: string; starred: boolean }) {
  const { t } = useTranslation('booking');
  const star = useStar();
  const unstar = useUnstar();
  const busy = star.isPending || unstar.isPending;
  const toggle = () => {
    const params = { params: { path: { deskId: desk.id } } };
    if (starred) unstar.mutate(params);
    else star.mutate(params);
  };
  return (
    <button
      type="button"
      className="star-button"
      aria-pressed={starred}
      aria-label={t('star.label', { desk: deskPhrase(desk.name), room: roomName })}
      title={starred ? t('star.unstar') : t('star.star')}
      disabled={busy}
      onClick={toggle}
    >
      <span aria-hidden="true">{starred ? '★' : '☆'}</span>
    </button>
  );
}
