import { useQuery } from '@tanstack/react-query';
import { publicApi } from '../../api/client.js';
import type { DisplayBoard as Board } from '../../api/types.js';
import { Alert, Loading } from '../../components/ui.js';
import { useTitle } from '../../hooks.js';
import { formatDay, formatRangeIn, formatTimeIn } from '../../lib/time.js';
import './styles.css';

/** How often the display asks again; the service keeps each office's board for a minute and answers 304 when it did not change. */
const REFRESH_MS = 30_000;

/** The lobby display of an office, without signing in (docs/people.md#the-lobby-display). */
export function DisplayBoardPage({ token }: { token: string }) {
  useTitle('Lobby display');
  const board = useQuery({
    queryKey: ['display', token],
    queryFn: async () => {
      const { data, response } = await publicApi.GET('/api/display/{token}', { params: { path: { token } } });
      if (!data) throw new Error(response.status === 404 ? 'This display is unknown or was revoked.' : 'The board could not be loaded; retrying.');
      return data;
    },
    refetchInterval: REFRESH_MS,
    retry: false,
  });
  return (
    <main id="main" className="display-board">
      {board.data ? <BoardView board={board.data} /> : board.error ? <Alert kind="error">{board.error.message}</Alert> : <Loading label="Loading the board…" />}
      {board.data && board.error && <p className="muted">Not updated since {formatTimeIn(board.data.generatedAt, board.data.timeZone)}.</p>}
    </main>
  );
}

function BoardView({ board }: { board: Board }) {
  const placed = board.desks.filter((desk) => desk.position !== null);
  return (
    <>
      <h1>
        {board.department.location} · {board.department.building} · floor {board.department.floor}
      </h1>
      <p className="display-counts">
        {formatDay(board.date)}, {formatTimeIn(board.generatedAt, board.timeZone)}: <strong>{board.free}</strong> free, <strong>{board.booked}</strong> booked
      </p>
      {placed.length > 0 && (
        <svg className="display-map" viewBox="0 0 1000 625" role="img" aria-label={`Plan: ${board.free} desks free, ${board.booked} booked`}>
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
                <title>{`${desk.name}: ${desk.state === 'FREE' ? 'free' : 'booked'}`}</title>
              </rect>
            );
          })}
        </svg>
      )}
      <ul className="display-list">
        {board.desks.map((desk) => (
          <li key={desk.id} className={desk.state === 'FREE' ? 'display-free-item' : 'display-booked-item'}>
            <strong>{desk.name}</strong> <span>({desk.roomName})</span>: {desk.state === 'FREE' ? 'free now' : 'booked now'}
            {desk.bookings.length > 0 && (
              <span className="display-bookings">
                {' '}
                · today:{' '}
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
