import { useCallback, useEffect, useRef, useState, type PointerEvent as ReactPointerEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Loading } from '../../../components/ui.js';
import { deskPhrase, deskTitle } from '../../../lib/labels.js';
import { errorText, problemMessage, problemOf } from '../../../lib/problems.js';
import { useLeaveGuard } from '../../../router.js';
import { fitDeskLabels, uprightRotation } from '../fit.js';
import { fitShape, keyEdit, moveBy, rotateBy, ROTATE_STEP, shapeAt, type Shape } from '../geometry.js';
import { useFloorPlan, useSaveFloorPlan, type FloorPlan, type FloorPlanDesk } from '../queries.js';
import { usePlanImage } from './plan-image.js';
import { PlanPatterns } from './PlanPatterns.js';
import '../styles.css';

type Positions = Record<string, Shape>;
type Drag =
  | { kind: 'move'; deskId: string; from: { x: number; y: number }; shape: Shape }
  | { kind: 'resize'; deskId: string; from: { x: number; y: number }; shape: Shape }
  | { kind: 'place'; deskId: string; name: string; client: { x: number; y: number } };
type Notice = { kind: 'success' | 'error' | 'warning'; text: string };

const positionsOf = (plan: FloorPlan): Positions =>
  Object.fromEntries(plan.desks.filter((desk) => desk.position).map((desk) => [desk.id, desk.position as Shape]));

/**
 * The admin's plan editor on the office page (docs/behaviour.md#the-map-and-the-plan-editor-web-app):
 * unplaced desks in a side list, dragged onto the plan; placed ones moved, resized, rotated, nudged
 * with the keyboard; saved whole with If-Match.
 */
export function FloorPlanEditor({ departmentId }: { departmentId: string }) {
  const { t } = useTranslation('inventory');
  const plan = useFloorPlan(departmentId);
  const image = usePlanImage(departmentId, Boolean(plan.data?.image));
  // Kept here: a saved or reloaded plan has a new ETag, and the editor starts afresh with it.
  const [notice, setNotice] = useState<Notice>();
  return (
    <section className="panel plan-editor" aria-labelledby="plan-editor-heading">
      <h2 id="plan-editor-heading">{t('plan.heading')}</h2>
      {plan.error ? (
        <Alert kind="error">{errorText(plan.error, t('plan.subject'))}</Alert>
      ) : !plan.data || image.loading ? (
        <Loading label={t('plan.loading')} />
      ) : (
        <>
          {notice && (
            <Alert kind={notice.kind} onDismiss={() => setNotice(undefined)}>
              {notice.text}
            </Alert>
          )}
          <Editor key={plan.data.etag} departmentId={departmentId} plan={plan.data} image={image} reload={() => plan.refetch()} setNotice={setNotice} />
        </>
      )}
    </section>
  );
}

function Editor({
  departmentId,
  plan,
  image,
  reload,
  setNotice,
}: {
  setNotice: (notice: Notice | undefined) => void;
  departmentId: string;
  plan: FloorPlan;
  image: { url: string | undefined; width: number; height: number };
  reload: () => Promise<unknown>;
}) {
  const { t } = useTranslation('inventory');
  const [positions, setPositions] = useState<Positions>(() => positionsOf(plan));
  const [selected, setSelected] = useState<string>();
  const [dirty, setDirty] = useState(false);
  useLeaveGuard(dirty, t('plan.leave'));
  const [drag, setDrag] = useState<Drag>();
  const svg = useRef<SVGSVGElement>(null);
  // The plan's drawn width, for labels that fit their desks at this size (as on the map).
  const [drawnWidth, setDrawnWidth] = useState(0);
  const resizing = useRef<ResizeObserver>(undefined);
  const svgRef = useCallback((element: SVGSVGElement | null) => {
    svg.current = element;
    resizing.current?.disconnect();
    if (!element) return;
    resizing.current = new ResizeObserver(() => setDrawnWidth(element.getBoundingClientRect().width));
    resizing.current.observe(element);
  }, []);
  const deskRefs = useRef(new Map<string, SVGGElement>());
  const saving = useSaveFloorPlan();
  const { width, height } = image;

  const desksById = new Map(plan.desks.map((desk) => [desk.id, desk]));
  const unplaced = plan.desks.filter((desk) => !positions[desk.id]);
  const placed = plan.desks.filter((desk) => positions[desk.id]);
  // Labels as on the map: one form and size per room, inside the box, upright, only when readable
  // at the size the plan is drawn (docs/behaviour.md#desk-labels-and-tap-targets-on-the-map).
  const labels = fitDeskLabels(
    placed.map((desk) => ({
      id: desk.id,
      group: desk.roomName,
      name: desk.name,
      mark: '',
      width: positions[desk.id]!.width * width,
      height: positions[desk.id]!.height * height,
    })),
    width > 0 ? drawnWidth / width : 0,
  );

  const change = (deskId: string, shape: Shape | undefined) => {
    setPositions((current) => {
      const next = { ...current };
      if (shape) next[deskId] = fitShape(shape);
      else delete next[deskId];
      return next;
    });
    setDirty(true);
    setNotice(undefined);
  };

  /** A point of the screen as fractions of the plan; undefined outside it. */
  const toPlan = (clientX: number, clientY: number, inside = false) => {
    const element = svg.current;
    const matrix = element?.getScreenCTM();
    if (!element || !matrix) return undefined;
    const point = new DOMPoint(clientX, clientY).matrixTransform(matrix.inverse());
    const fraction = { x: point.x / width, y: point.y / height };
    if (inside && (fraction.x < 0 || fraction.x > 1 || fraction.y < 0 || fraction.y > 1)) return undefined;
    return fraction;
  };

  useEffect(() => {
    if (!drag) return;
    const move = (event: PointerEvent) => {
      if (drag.kind === 'place') {
        setDrag({ ...drag, client: { x: event.clientX, y: event.clientY } });
        return;
      }
      const point = toPlan(event.clientX, event.clientY);
      if (!point) return;
      const dx = point.x - drag.from.x;
      const dy = point.y - drag.from.y;
      if (drag.kind === 'move') change(drag.deskId, moveBy(drag.shape, dx, dy));
      else change(drag.deskId, { ...drag.shape, width: drag.shape.width + dx, height: drag.shape.height + dy });
    };
    const end = (event: PointerEvent) => {
      if (drag.kind === 'place') {
        const point = toPlan(event.clientX, event.clientY, true);
        if (point) {
          change(drag.deskId, shapeAt(point.x, point.y));
          setSelected(drag.deskId);
        }
      }
      setDrag(undefined);
    };
    window.addEventListener('pointermove', move);
    window.addEventListener('pointerup', end);
    window.addEventListener('pointercancel', end);
    return () => {
      window.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', end);
      window.removeEventListener('pointercancel', end);
    };
  });

  const startDeskDrag = (event: ReactPointerEvent, deskId: string, kind: 'move' | 'resize') => {
    const from = toPlan(event.clientX, event.clientY);
    const shape = positions[deskId];
    if (!from || !shape) return;
    event.stopPropagation();
    event.preventDefault();
    setSelected(deskId);
    deskRefs.current.get(deskId)?.focus();
    setDrag({ kind, deskId, from, shape });
  };

  const placeInMiddle = (desk: FloorPlanDesk) => {
    change(desk.id, shapeAt(0.5, 0.5));
    setSelected(desk.id);
    // Focus follows the desk onto the plan, so the arrow keys move it at once.
    requestAnimationFrame(() => deskRefs.current.get(desk.id)?.focus());
  };

  const save = () => {
    const body = { positions: placed.map((desk) => ({ deskId: desk.id, ...positions[desk.id]! })) };
    saving.mutate(
      { params: { path: { departmentId }, header: { 'if-match': plan.etag } }, body },
      {
        onSuccess: () => {
          setDirty(false);
          setNotice({ kind: 'success', text: t('plan.saved', { count: body.positions.length }) });
        },
        onError: async (error) => {
          const problem = problemOf(error);
          if (problem.status === 412) {
            // Someone else saved meanwhile: show their plan; this one's changes are not kept.
            await reload();
            setNotice({ kind: 'warning', text: t('plan.conflict') });
          } else setNotice({ kind: 'error', text: problemMessage(problem, t('plan.subject')) });
        },
      },
    );
  };

  const selectedShape = selected ? positions[selected] : undefined;
  const selectedDesk = selected ? desksById.get(selected) : undefined;

  return (
    <>
      {!plan.image && <Alert kind="info">{t('plan.noPicture')}</Alert>}
      <p className="muted" id="plan-editor-help">
        {t('plan.help')}
      </p>
      <div className="plan-editor-layout">
        <div>
          <h3>{t('plan.unplacedHeading', { unplaced: unplaced.length })}</h3>
          {plan.desks.length === 0 ? (
            <p className="muted">{t('plan.noDesks')}</p>
          ) : unplaced.length === 0 ? (
            <p className="muted">{t('plan.allPlaced')}</p>
          ) : (
            <ul className="unplaced-list" aria-label={t('plan.unplacedLabel')}>
              {unplaced.map((desk) => (
                <li
                  key={desk.id}
                  data-desk-id={desk.id}
                  onPointerDown={(event) => {
                    if ((event.target as HTMLElement).closest('button')) return;
                    event.preventDefault();
                    setDrag({ kind: 'place', deskId: desk.id, name: desk.name, client: { x: event.clientX, y: event.clientY } });
                  }}
                >
                  <span>
                    {desk.name} <span className="muted">({desk.roomName})</span>
                  </span>
                  <button
                    type="button"
                    className="button-secondary button-small"
                    onClick={() => placeInMiddle(desk)}
                    aria-label={t('plan.placeLabel', { desk: deskPhrase(desk.name) })}
                  >
                    {t('plan.place')}
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>
        <div className="plan-zoom">
          <div className="plan-toolbar" role="toolbar" aria-label={t('plan.toolbar')}>
            <span>{selectedDesk ? t('plan.selected', { desk: deskPhrase(selectedDesk.name) }) : t('plan.noneSelected')}</span>
            <button
              type="button"
              className="button-secondary button-small"
              disabled={!selectedShape}
              onClick={() => selected && selectedShape && change(selected, rotateBy(selectedShape, -ROTATE_STEP))}
            >
              {t('plan.rotateLeft')}
            </button>
            <button
              type="button"
              className="button-secondary button-small"
              disabled={!selectedShape}
              onClick={() => selected && selectedShape && change(selected, rotateBy(selectedShape, ROTATE_STEP))}
            >
              {t('plan.rotateRight')}
            </button>
            <button
              type="button"
              className="button-secondary button-small"
              disabled={!selectedShape}
              onClick={() => {
                if (selected) change(selected, undefined);
                setSelected(undefined);
              }}
            >
              {t('plan.takeOff')}
            </button>
          </div>
          <svg
            ref={svgRef}
            className="plan-svg"
            viewBox={`0 0 ${width} ${height}`}
            role="group"
            aria-label={t('plan.editorLabel')}
            aria-describedby="plan-editor-help"
          >
            <PlanPatterns />
            {image.url ? <image href={image.url} width={width} height={height} /> : <rect width={width} height={height} fill="url(#fp-grid)" />}
            {placed.map((desk) => {
              const label = labels.get(desk.id);
              const shape = positions[desk.id]!;
              const box = { x: shape.x * width, y: shape.y * height, width: shape.width * width, height: shape.height * height };
              const centre = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
              const isSelected = desk.id === selected;
              return (
                <g
                  key={desk.id}
                  ref={(element) => {
                    if (element) deskRefs.current.set(desk.id, element);
                    else deskRefs.current.delete(desk.id);
                  }}
                  className={`plan-desk${isSelected ? ' selected' : ''}`}
                  data-desk-id={desk.id}
                  transform={`rotate(${shape.rotation} ${centre.x} ${centre.y})`}
                  role="button"
                  tabIndex={0}
                  aria-pressed={isSelected}
                  aria-label={t('plan.deskLabel', {
                    desk: deskTitle(desk.name),
                    room: desk.roomName,
                    x: Math.round(shape.x * 100),
                    y: Math.round(shape.y * 100),
                    rotation: shape.rotation,
                  })}
                  onFocus={() => setSelected(desk.id)}
                  onPointerDown={(event) => startDeskDrag(event, desk.id, 'move')}
                  onKeyDown={(event) => {
                    const edit = keyEdit(shape, event.key, event.shiftKey);
                    if (!edit) return;
                    event.preventDefault();
                    if (edit.kind === 'remove') {
                      change(desk.id, undefined);
                      setSelected(undefined);
                    } else change(desk.id, edit.shape);
                  }}
                >
                  <title>{t('plan.deskTitle', { desk: deskTitle(desk.name), room: desk.roomName })}</title>
                  <rect {...box} rx={3} fill="#dbeafe" stroke="#1e3a8a" strokeWidth={2} style={{ cursor: 'move' }} />
                  {label && (
                    <text
                      x={centre.x}
                      y={centre.y}
                      transform={
                        shape.rotation === uprightRotation(shape.rotation)
                          ? undefined
                          : `rotate(${uprightRotation(shape.rotation) - shape.rotation} ${centre.x} ${centre.y})`
                      }
                      textAnchor="middle"
                      dominantBaseline="central"
                      fontSize={label.fontSize}
                      fontWeight={700}
                      fill="#111827"
                      aria-hidden="true"
                      pointerEvents="none"
                    >
                      {label.text}
                    </text>
                  )}
                  {isSelected && (
                    <rect
                      className="plan-resize-handle"
                      x={box.x + box.width - 7}
                      y={box.y + box.height - 7}
                      width={14}
                      height={14}
                      fill="#f59e0b"
                      stroke="#111827"
                      style={{ cursor: 'nwse-resize' }}
                      onPointerDown={(event) => startDeskDrag(event, desk.id, 'resize')}
                    />
                  )}
                </g>
              );
            })}
          </svg>
          <div className="form-actions form-actions-start">
            <button type="button" className="button-primary" onClick={save} disabled={saving.isPending || !dirty}>
              {saving.isPending ? t('common:saving') : t('plan.save')}
            </button>
            {dirty && <span className="muted">{t('plan.unsaved')}</span>}
          </div>
        </div>
      </div>
      {drag?.kind === 'place' && (
        <div className="plan-ghost" style={{ left: drag.client.x, top: drag.client.y }} aria-hidden="true">
          {drag.name}
        </div>
      )}
    </>
  );
}
