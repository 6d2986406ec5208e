import { readFileSync } from 'node:fs';
import { verifyJson, readJsonStrict } from '@runback/verify';
const b = readFileSync('/tmp/rec.json');
for (let i=0;i<3;i++) { const t=performance.now(); const r = verifyJson(b); console.log(r.verdict, (performance.now()-t).toFixed(0)); }
for (let i=0;i<3;i++) { const t=performance.now(); readJsonStrict(b); console.log('read', (performance.now()-t).toFixed(0)); }
for (let i=0;i<3;i++) { const t=performance.now(); JSON.parse(b.toString()); console.log('parse', (performance.now()-t).toFixed(0)); }
