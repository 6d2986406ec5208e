import { readFileSync } from 'node:fs';
import { canonicalWithout } from '@runback/canonical';
const obj = JSON.parse(readFileSync('/tmp/rec.json', 'utf8'));
const t = (label, fn) => { fn(); const r=[]; for (let i=0;i<3;i++){const s = performance.now(); fn(); r.push(performance.now() - s);} console.log(label, r.map(x=>x.toFixed(0)).join(' '), 'ms'); };
t('canonical', () => { for (const e of obj.events) canonicalWithout(e, '_hash'); });
t('stringify plain', () => { for (const e of obj.events) JSON.stringify(e); });
