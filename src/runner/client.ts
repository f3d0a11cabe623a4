// The runner's side of Gitea's runner protocol: a Connect client of runner.v1.RunnerService under
// `<instance>/api/actions`, binary protobuf as act_runner sends it, each call after registration
// carrying `x-runner-uuid` and `x-runner-token`.
import { createClient, type Client, type Interceptor } from '@connectrpc/connect';
import { createConnectTransport } from '@connectrpc/connect-node';
import { RunnerService } from '../../generated/proto/runner/v1/services_pb.js';

export type RunnerApi = Client<typeof RunnerService>;

export interface Credentials {
  uuid: string;
  token: string;
}

/** `instance` is the server's root URL (e.g. http://localhost:3000/). */
export function runnerApi(instance: string, creds?: Credentials): RunnerApi {
  const auth: Interceptor = (next) => async (req) => {
    if (creds) {
      req.header.set('x-runner-uuid', creds.uuid);
      req.header.set('x-runner-token', creds.token);
    }
    return next(req);
  };
  const transport = createConnectTransport({
    baseUrl: `${instance.replace(/\/$/, '')}/api/actions`, httpVersion: '1.1', useBinaryFormat: true, interceptors: [auth],
  });
  return createClient(RunnerService, transport);
}
