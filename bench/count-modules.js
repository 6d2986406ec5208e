// Counts the files a Node process loads through the ES module loader: run a program as
// `node --import ./bench/count-modules.js PROGRAM…` with RUNBACK_MODULES_OUT=FILE, and FILE
// receives one URL per line (node: built-ins excluded). Used by bench/verify.js's start-up row,
// in a run of its own: the hook thread itself costs start-up time.
import { register } from 'node:module';

const out = process.env.RUNBACK_MODULES_OUT;
if (out !== undefined && out !== '') {
  const hooks = `
    import { appendFileSync } from 'node:fs';
    export async function load(url, context, next) {
      if (!url.startsWith('node:')) appendFileSync(${JSON.stringify(out)}, url + '\\n');
      return next(url, context);
    }`;
  register(`data:text/javascript,${encodeURIComponent(hooks)}`);
}
