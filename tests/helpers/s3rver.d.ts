// The little of s3rver's API the tests use (it ships no types).
declare module 's3rver' {
  export default class S3rver {
    constructor(opts: { port?: number; address?: string; silent?: boolean; directory: string });
    run(): Promise<{ port: number; address: string }>;
    close(): Promise<void>;
  }
}
