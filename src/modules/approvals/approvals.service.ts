import type { Database } from '../../db/client.js';
import type { Clock } from '../../shared/clock.js';
import { AppError, forbidden, invalid, notFound } from '../../shared/errors.js';
import type { Language } from '../../shared/languages.js';
import { pageOf, parsePageRequest, type PageOf } from '../../shared/paging.js';
import { isAdmin, type Caller } from '../../identity/caller.js';
import { queueNotices } from '../notifications/notifications.queue.js';
import { languageOf } from '../preferences/preferences.access.js';
import { outcomeNotice } from './approvals.mail.js';
import { toApprovalDto, toRequirementDto } from './approvals.mappers.js';
import { ApprovalsRepository, type Booker } from './approvals.repository.js';
import type { ApprovalDto, ApprovalListQuery, DecisionBody, RequirementDto, RequirementInput, RequirementListQuery } from './approvals.schemas.js';

/**
 * Cancels reservations through the one writer of reservations, in the given transaction; answers
 * the ids cancelled. app.ts hands over ReservationWriter.cancelForApproval: this module does not
 * import the reservations module (which calls requestApprovals), so the two do not form a circle.
 */
export type CancelReservations = (tx: Database, ids: string[]) => Promise<string[]>;

const booker = (caller: Caller): Booker => ({ id: caller.user.id, admin: isAdmin(caller) });

/**
 * Approvals (docs/policies.md#approvals): the requirements (admins), the approvers' inbox and their
 * decisions, the owner's view of their requests. Requests are made by the one writer of
 * reservations (requestApprovals) and expired by approvals.expiry.ts.
 */
export class ApprovalsService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly cancel: CancelReservations,
    /** PUBLIC_URL, whether mail can go out, and the server's default language (docs/i18n.md#choosing-the-language). */
    private readonly options: { publicUrl: string; mails: boolean; defaultLanguage?: Language },
  ) {}

  async requirements(query: RequirementListQuery): Promise<PageOf<RequirementDto>> {
    const request = parsePageRequest(query, []);
    const { rows, total } = await new ApprovalsRepository(this.db).requirements(request);
    return pageOf(rows.map(toRequirementDto), total, request);
  }

  /** A requirement, checked: the scope's one field and none of the others, the teams; 400 names the field. */
  async createRequirement(caller: Caller, input: RequirementInput): Promise<RequirementDto> {
    const repository = new ApprovalsRepository(this.db);
    const fields = { AREA: 'areaId', DEPARTMENT: 'departmentId', ROOM: 'roomId', DESK_TYPE: 'deskType' } as const;
    for (const [scope, field] of Object.entries(fields)) {
      const given = input[field] !== undefined;
      if (scope === input.scope && !given) throw invalid(field, `is required for the ${scope} scope`);
      if (scope !== input.scope && given) throw invalid(field, `only the ${scope} scope takes ${field}`);
    }
    const appliesTo = input.appliesTo ?? 'EVERYONE';
    if (appliesTo === 'EVERYONE' && input.teamId !== undefined) throw invalid('teamId', 'only appliesTo MEMBERS or NON_MEMBERS takes a team');
    if (appliesTo !== 'EVERYONE' && input.teamId === undefined) throw invalid('teamId', `is required with appliesTo ${appliesTo}`);
    if (input.departmentId !== undefined && !(await repository.exists('departments', input.departmentId))) throw invalid('departmentId', 'no such department');
    if (input.roomId !== undefined && !(await repository.exists('rooms', input.roomId))) throw invalid('roomId', 'no such room');
    if (input.areaId !== undefined && !(await repository.exists('policy_areas', input.areaId))) throw invalid('areaId', 'no such area');
    if (input.teamId !== undefined && !(await repository.exists('teams', input.teamId))) throw invalid('teamId', 'no such team');
    if (input.approverTeamId !== undefined && !(await repository.exists('teams', input.approverTeamId))) throw invalid('approverTeamId', 'no such team');
    const row = await repository.insertRequirement(
      {
        scope: input.scope,
        departmentId: input.departmentId ?? null,
        roomId: input.roomId ?? null,
        areaId: input.areaId ?? null,
        deskType: input.deskType ?? null,
        appliesTo,
        teamId: input.teamId ?? null,
        approverTeamId: input.approverTeamId ?? null,
      },
      caller.user.id,
      this.clock.now(),
    );
    return toRequirementDto(row);
  }

  /** Deleting a requirement asks nothing of new bookings; its pending requests stay, for the admins to decide. */
  async deleteRequirement(id: string): Promise<void> {
    if (!(await new ApprovalsRepository(this.db).deleteRequirement(id))) throw notFound('Approval requirement', id);
  }

  /** The approver's inbox: what the caller may decide (admins all, team managers their teams' requirements). */
  async inbox(caller: Caller, query: ApprovalListQuery): Promise<PageOf<ApprovalDto>> {
    const request = parsePageRequest(query, []);
    const { rows, total } = await new ApprovalsRepository(this.db).page({ decider: booker(caller), status: query.status }, request);
    return pageOf(rows.map(toApprovalDto), total, request);
  }

  /** The caller's own requests. */
  async mine(caller: Caller, query: ApprovalListQuery): Promise<PageOf<ApprovalDto>> {
    const request = parsePageRequest(query, []);
    const { rows, total } = await new ApprovalsRepository(this.db).page({ ownerId: caller.user.id, status: query.status }, request);
    return pageOf(rows.map(toApprovalDto), total, request);
  }

  /** The approval of one reservation, for its owner and those who may decide it; 404 for anyone else or when it needed none. */
  async get(caller: Caller, reservationId: string): Promise<ApprovalDto> {
    const row = await new ApprovalsRepository(this.db).visible(reservationId, booker(caller));
    if (!row) throw notFound('Approval of reservation', reservationId);
    return toApprovalDto(row);
  }

  /**
   * Approves or rejects a pending request, in one transaction: the status (one statement, so of two
   * approvers at once one wins and the other gets 409), a rejected reservation cancelled through
   * the one writer, and the owner's mail and push (docs/notifications.md#events).
   */
  async decide(caller: Caller, reservationId: string, decision: 'APPROVED' | 'REJECTED', body: DecisionBody): Promise<ApprovalDto> {
    const note = body.note?.trim() ? body.note.trim() : null;
    const decided = await this.db.transaction(async (tx) => {
      const row = await new ApprovalsRepository(tx).decide(reservationId, booker(caller), decision, note, this.clock.now());
      if (!row) return undefined;
      if (decision === 'REJECTED') await this.cancel(tx, [reservationId]);
      const language = await languageOf(tx, row.userId, this.options.defaultLanguage ?? 'en');
      await queueNotices(tx, [outcomeNotice(row, this.options, language)]);
      return row;
    });
    if (decided) return toApprovalDto(decided);
    const row = await new ApprovalsRepository(this.db).visible(reservationId, booker(caller));
    if (!row) throw notFound('Approval of reservation', reservationId);
    if (row.status !== 'PENDING') throw new AppError('APPROVAL_DECIDED', `The request is already ${row.status.toLowerCase()}`);
    if (!row.mayDecide) throw forbidden('Only an admin or a manager of the approving team decides this request');
    throw new AppError('CONFLICT', 'The reservation was cancelled; there is nothing left to decide');
  }
}
