import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { publicApi } from '../../api/client.js';
import type { DisplayBoard as Board } from '../../api/types.js';
import { Alert, Loading } from '../../components/ui.js';
import { useTitle } from '../../hooks.js';
import { formatDay, formatRangeIn, formatTimeIn } from '../../lib/time.js';
import { mark, withElements } from '../../lib/rich.js';
import './styles.css';

/** How often the display asks again; the service keeps each office's board for a minute and answers 304 when it did not change. */
const REFRESH_MS = 30_000;

/** The lobby display of an office, without signing in (docs/people.md#the-lobby-display). */
export function DisplayBoardPage({ token }: { token: string }) {
  const { t } = useTranslation('displays');
  useTitle(t('board.title'));
  const board = useQuery({
    queryKey: ['display', token],
    queryFn: async () => {
      const { data, response } = await publicApi.GET('/api/display/{token}', { params: { path: { token } } });
      // The message is the key of the sentence shown (in the language of the moment it shows).
      if (!data) throw new Error(response.status === 404 ? 'board.unknown' : 'board.failed');
      return data;
    },
    refetchInterval: REFRESH_MS,
    retry: false,
  });
  return (
    <main id="main" className="display-board">
      {board.data ? (
        <BoardView board={board.data} />
      ) : board.error ? (
        <Alert kind="error">{t(board.error.message === 'board.unknown' ? 'board.unknown' : 'board.failed')}</Alert>
      ) : (
        <Loading label={t('board.loading')} />
      )}
      {board.data && board.error && <p className="muted">{t('board.stale', { time: formatTimeIn(board.data.generatedAt, board.data.timeZone) })}</p>}
    </main>
  );
}

function BoardView({ board }: { board: Board }) {
  const { t } = useTranslation('displays');
  const placed = board.desks.filter((desk) => desk.position !== null);
  return (
    <>
      <h1>{t('board.heading', { location: board.department.location, building: board.department.building, floor: board.department.floor })}</h1>
      <p className="display-counts">
        {t('board.at', { day: formatDay(board.date), time: formatTimeIn(board.generatedAt, board.timeZone) })}{' '}
        {withElements(t('board.counts', { free: mark('free'), countFree: board.free, booked: mark('booked'), countBooked: board.booked }), {
          free: <strong>{board.free}</strong>,
          booked: <strong>{board.booked}</strong>,
        })}
      </p>
      {placed.length > 0 && (
        <svg className="display-map" viewBox="0 0 1000 625" role="img" aria-label={t('board.planLabel', { countFree: board.free, countBooked: board.booked })}>
          {placed.map((desk) => {
            const p = desk.position!;
            return (
              <rect
                key={desk.id}
                x={p.x * 1000}
                y={p.y * 625}
                width={Math.max(p.width * 1000, 8)}
                height={Math.max(p.height * 625, 8)}
                transform={`rotate(${p.rotation} ${(p.x + p.width / 2) * 1000} ${(p.y + p.height / 2) * 625})`}
                className={desk.state === 'FREE' ? 'display-free' : 'display-booked'}
              >
                <title>{t(desk.state === 'FREE' ? 'board.deskFree' : 'board.deskBooked', { name: desk.name })}</title>
              </rect>
            );
          })}
        </svg>
      )}
      <ul className="display-list">
        {board.desks.map((desk) => (
          <li key={desk.id} className={desk.state === 'FREE' ? 'display-free-item' : 'display-booked-item'}>
            <strong>{desk.name}</strong> <span>({desk.roomName})</span>
            {desk.state === 'FREE' ? t('board.freeNow') : t('board.bookedNow')}
            {desk.bookings.length > 0 && (
              <span className="display-bookings">
                {' '}
                {t('board.today')}{' '}
                {desk.bookings
                  .map((booking) => `${formatRangeIn(booking.startTime, booking.endTime, board.timeZone)}${booking.name ? ` ${booking.name}` : ''}`)
                  .join(', ')}
              </span>
            )}
          </li>
        ))}
      </ul>
    </>
  );
}
