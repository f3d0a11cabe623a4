// The part of autocannon's programmatic API `make bench` uses (it ships no types).
declare module 'autocannon' {
  interface Options { url: string; connections: number; duration: number; method: string; headers: Record<string, string>; body?: string; timeout?: number }
  interface Histogram { average: number; p50: number; p99: number; total: number }
  interface Result { requests: Histogram; latency: Histogram; throughput: Histogram; errors: number; non2xx: number; timeouts: number }
  export default function autocannon(opts: Options): Promise<Result>;
}
