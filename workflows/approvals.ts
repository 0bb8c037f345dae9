/**
 * The executor's approval desk: open waits (approval nodes and the run gate) and the decisions
 * the `approval` Update delivers. A wait is a workflow `condition` (with a timer when it has a
 * timeout) inside the node's cancellation scope, so cancelling or aborting the run ends it like
 * any activity. No activity runs: nothing but the update's event and the timer enter the history.
 */
import { ApplicationFailure, condition, setHandler } from '@temporalio/workflow';
import type * as ApprovalSchemas from '../src/domain/approval-schemas';
import {
  APPROVAL_ERROR_TYPES,
  APPROVAL_OP,
  APPROVAL_REFUSALS,
  approvalUpdate,
  RUN_GATE_ID,
  type ApprovalDecision,
  type ApprovalRequest,
  type ApprovalWait,
} from '../src/domain/approvals';
import type { PlanNode } from '../src/domain/records';
import type { NodeActivityResult, NodeState } from '../src/domain/run-state';

const refuse = (type: string, message: string) => ApplicationFailure.create({ type, message, nonRetryable: true });

export interface DeskLookups {
  node(id: string): PlanNode | undefined;
  state(id: string): NodeState | undefined;
  now(): string;
}

export class ApprovalDesk {
  private readonly open = new Map<string, ApprovalWait>();
  private readonly decided = new Map<string, ApprovalDecision>();
  private readonly log: ApprovalDecision[] = [];
  /** Loaded by runs whose plan can wait (a decision is only ever taken for an open wait). */
  private schemas: typeof ApprovalSchemas | undefined;

  constructor(private readonly lookups: DeskLookups) {}

  useSchemas(schemas: typeof ApprovalSchemas): void {
    this.schemas = schemas;
  }

  /** Registers the `approval` Update (its validator refuses decisions on anything not waiting). */
  install(): void {
    setHandler(approvalUpdate, (request) => this.decide(request), { validator: (request) => this.validate(request) });
  }

  /** Open waits, oldest first (undefined when none, so statuses without approvals keep their shape). */
  waits(): ApprovalWait[] | undefined {
    return this.open.size > 0 ? [...this.open.values()] : undefined;
  }

  decisions(): ApprovalDecision[] | undefined {
    return this.log.length > 0 ? [...this.log] : undefined;
  }

  private validate(request: ApprovalRequest): void {
    const id: unknown = request?.node_id;
    if (typeof id !== 'string') throw refuse('invalid_params', 'invalid approval request: node_id must be a string');
    if (this.open.has(id)) {
      const parsed = this.schemas!.approvalRequestSchema.safeParse(request);
      if (parsed.success) return;
      throw refuse('invalid_params', `invalid approval request: ${parsed.error.issues.map((i) => i.message).join('; ')}`);
    }
    if (id === RUN_GATE_ID) throw refuse(APPROVAL_REFUSALS.notWaiting, 'the run is not waiting for approval to start');
    const node = this.lookups.node(id);
    if (!node) throw refuse(APPROVAL_REFUSALS.unknownNode, `the run's plan has no node "${id}"`);
    if (node.op !== APPROVAL_OP) throw refuse(APPROVAL_REFUSALS.notApproval, `node "${id}" is a ${node.op} node, not an approval node`);
    throw refuse(APPROVAL_REFUSALS.notWaiting, `approval node "${id}" is not waiting (it is ${this.lookups.state(id) ?? 'unknown'})`);
  }

  private decide(request: ApprovalRequest): ApprovalDecision {
    // A second decision validated before the first one was applied finds the wait closed.
    if (!this.open.has(request.node_id) || this.decided.has(request.node_id)) {
      throw refuse(APPROVAL_REFUSALS.notWaiting, `"${request.node_id}" was decided already`);
    }
    const decision: ApprovalDecision = {
      node_id: request.node_id,
      decision: request.decision,
      approved: request.decision === 'approve',
      by: request.by,
      at: this.lookups.now(),
      ...(request.comment !== undefined ? { comment: request.comment } : {}),
    };
    this.decided.set(request.node_id, decision);
    this.log.push(decision);
    return decision;
  }

  /**
   * Waits for a decision on `id`: resolves with the decision as the node's output when approved;
   * fails with approval_rejected or approval_timeout (non-retryable) otherwise.
   */
  async wait(id: string, prompt: string, timeoutMs?: number): Promise<NodeActivityResult> {
    const since = this.lookups.now();
    this.open.set(id, {
      node_id: id,
      prompt,
      since,
      ...(timeoutMs !== undefined ? { timeout_at: new Date(Date.parse(since) + timeoutMs).toISOString() } : {}),
      decided_by: 'a caller who may run the plan',
    });
    try {
      const has = () => this.decided.has(id);
      const what = id === RUN_GATE_ID ? 'the run' : `approval node "${id}"`;
      // The summary names in the Temporal UI the wait this timer bounds; replay does not compare summaries, so no patch.
      const inTime = timeoutMs === undefined ? (await condition(has), true) : await condition(has, timeoutMs, { summary: `approval timeout · ${id}` });
      if (!inTime) throw refuse(APPROVAL_ERROR_TYPES.timeout, `${what} was not approved within ${timeoutMs} ms`);
      const decision = this.decided.get(id)!;
      if (!decision.approved) {
        const comment = decision.comment ? `: ${decision.comment}` : '';
        throw ApplicationFailure.create({ type: APPROVAL_ERROR_TYPES.rejected, message: `${what} was rejected by ${decision.by}${comment}`, nonRetryable: true, details: [decision] });
      }
      return { output: decision, attempt: 1 };
    } finally {
      this.open.delete(id);
    }
  }
}
