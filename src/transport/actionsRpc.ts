// The Actions runner protocol's handler: runner.v1.RunnerService and ping.v1.PingService over Connect
// (JSON and binary protobuf, as act_runner sends), from the definitions in proto/. Runners authenticate
// with `x-runner-uuid` and `x-runner-token`; the work is done by services/actions. Loaded on the first
// runner request (transport/actions.ts), so a server no runner talks to never loads the protobuf runtime.
import { Code, ConnectError, type ConnectRouter, type HandlerContext } from '@connectrpc/connect';
import { connectNodeAdapter } from '@connectrpc/connect-node';
import { timestampDate, type Timestamp } from '@bufbuild/protobuf/wkt';
import type { JsonObject, MessageInitShape } from '@bufbuild/protobuf';
import { PingService } from '../../generated/proto/ping/v1/services_pb.js';
import { Result, RunnerStatus, type RunnerSchema } from '../../generated/proto/runner/v1/messages_pb.js';
import { RunnerService } from '../../generated/proto/runner/v1/services_pb.js';
import type { ActionRunnerRow, ActionState } from '../db/schema/index.js';
import { DomainError, Invalid, NotFound, Unauthorized } from '../services/errors.js';
import type { Services } from '../services/index.js';

const resultOf: Record<ActionState, Result> = {
  success: Result.SUCCESS, failure: Result.FAILURE, cancelled: Result.CANCELLED, skipped: Result.SKIPPED,
  waiting: Result.UNSPECIFIED, blocked: Result.UNSPECIFIED, running: Result.UNSPECIFIED,
};
const stateOf: Partial<Record<Result, ActionState>> = {
  [Result.SUCCESS]: 'success', [Result.FAILURE]: 'failure', [Result.CANCELLED]: 'cancelled', [Result.SKIPPED]: 'skipped',
};

const date = (t: Timestamp | undefined) => (t && (t.seconds !== 0n || t.nanos !== 0) ? timestampDate(t) : undefined);

function runnerMessage(r: ActionRunnerRow, token = ''): MessageInitShape<typeof RunnerSchema> {
  return {
    id: BigInt(r.id), uuid: r.uuid, token, name: r.name, version: r.version, labels: r.labels, ephemeral: r.ephemeral,
    status: RunnerStatus.IDLE,
  };
}

/** Domain errors as Connect codes (what act_runner reports to its user). */
function rethrow(err: unknown): never {
  if (err instanceof ConnectError) throw err;
  if (err instanceof Unauthorized) throw new ConnectError(err.message, Code.Unauthenticated);
  if (err instanceof NotFound) throw new ConnectError(err.message, Code.NotFound);
  if (err instanceof Invalid) throw new ConnectError(err.message, Code.InvalidArgument);
  if (err instanceof DomainError) throw new ConnectError(err.message, Code.FailedPrecondition);
  throw err;
}

function routes(services: Services) {
  const { runners } = services;
  const caller = async (ctx: HandlerContext) => runners.authenticate(ctx.requestHeader.get('x-runner-uuid') ?? '', ctx.requestHeader.get('x-runner-token') ?? '');
  const guard = <A extends unknown[], R>(fn: (...args: A) => Promise<R>) => async (...args: A): Promise<R> => {
    try {
      return await fn(...args);
    } catch (err) {
      rethrow(err);
    }
  };
  return (router: ConnectRouter) => {
    router.service(PingService, {
      ping: async (req) => ({ data: `Hello, ${req.data}!` }),
    });
    router.service(RunnerService, {
      register: guard(async (req) => {
        const labels = req.labels.length ? req.labels : [...req.agentLabels, ...req.customLabels];
        const { runner, token } = await runners.register({ token: req.token, name: req.name, version: req.version, labels, ephemeral: req.ephemeral });
        return { runner: runnerMessage(runner, token) };
      }),
      declare: guard(async (req, ctx) => {
        const runner = await runners.declare(await caller(ctx), { version: req.version, labels: req.labels });
        return { runner: runnerMessage(runner) };
      }),
      fetchTask: guard(async (req, ctx) => {
        const { task, version } = await runners.fetchTask(await caller(ctx), Number(req.tasksVersion));
        if (!task) return { tasksVersion: BigInt(version) };
        return {
          tasksVersion: BigInt(version),
          task: {
            id: BigInt(task.id),
            workflowPayload: new TextEncoder().encode(task.workflowPayload),
            context: task.context as JsonObject,
            secrets: task.secrets,
            needs: Object.fromEntries(Object.entries(task.needs).map(([k, n]) => [k, { result: resultOf[n.result], outputs: n.outputs }])),
            vars: task.vars,
          },
        };
      }),
      updateTask: guard(async (req, ctx) => {
        const state = req.state;
        if (!state) throw new ConnectError('state is missing', Code.InvalidArgument);
        const out = await runners.updateTask(
          await caller(ctx),
          {
            id: Number(state.id),
            result: stateOf[state.result],
            startedAt: date(state.startedAt),
            stoppedAt: date(state.stoppedAt),
            steps: state.steps.map((s) => ({
              id: Number(s.id), result: stateOf[s.result], startedAt: date(s.startedAt), stoppedAt: date(s.stoppedAt),
              logIndex: Number(s.logIndex), logLength: Number(s.logLength),
            })),
          },
          req.outputs,
        );
        return { state: { id: state.id, result: out.result ? resultOf[out.result] : Result.UNSPECIFIED }, sentOutputs: out.sentOutputs };
      }),
      updateLog: guard(async (req, ctx) => {
        const ack = await runners.updateLog(
          await caller(ctx),
          Number(req.taskId),
          Number(req.index),
          req.rows.map((r) => ({ time: date(r.time), content: r.content })),
          req.noMore,
        );
        return { ackIndex: BigInt(ack) };
      }),
    });
  };
}

export function connectHandler(services: Services, prefix: string) {
  return connectNodeAdapter({ routes: routes(services), requestPathPrefix: prefix, readMaxBytes: 16 * 1024 * 1024 });
}
