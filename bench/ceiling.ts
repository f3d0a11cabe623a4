// The ceiling `make bench` prints beside anvil: Koa answering a constant JSON body of the size of a GET
// issue (BENCH_BODY_FILE), so the table shows what the HTTP stack alone costs on this machine.
import { readFileSync } from 'node:fs';
import Koa from 'koa';

const body = readFileSync(process.env.BENCH_BODY_FILE!, 'utf8');
const app = new Koa();
app.use((ctx) => {
  ctx.type = 'application/json';
  ctx.body = body;
});
app.listen(Number(process.env.PORT), '127.0.0.1');
