// Summarise a V8 CPU profile (BENCH_CPU_PROFILE=1 npm run bench writes them to .bench/profiles):
//   npx tsx bench/profile.ts .bench/profiles/<file>.cpuprofile [top]
// Prints self time by package or server directory, then the top functions by self time.
import { readFileSync } from 'node:fs';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

const [file, topArg] = process.argv.slice(2);
if (!file) {
  console.error('usage: tsx bench/profile.ts <file.cpuprofile> [top]');
  process.exit(1);
}
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const top = Number(topArg ?? 30);
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const self = new Map<number, number>();
profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
const total = [...self.values()].reduce((a, b) => a + b, 0);

function area(url: string, name: string): string {
  if (!url) return name.startsWith('(') ? name : '(native)';
  const modules = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (modules) return modules[1]!;
  const server = url.match(/\/(server\/(?:[^/]+\/)?)/);
  if (server) return server[1]!;
  if (url.startsWith('node:')) return 'node:' + url.slice(5).split('/')[0];
  return url.replace(/^file:\/\//, '');
}

const areas = new Map<string, number>();
const functions = new Map<string, number>();
for (const [id, time] of self) {
  const { callFrame } = byId.get(id)!;
  const a = area(callFrame.url, callFrame.functionName);
  areas.set(a, (areas.get(a) ?? 0) + time);
  const where = callFrame.url ? `${callFrame.url.replace(/^.*\/(node_modules|server)\//, '$1/')}:${callFrame.lineNumber + 1}` : '';
  const key = `${callFrame.functionName || '(anonymous)'} ${where}`;
  functions.set(key, (functions.get(key) ?? 0) + time);
}
// Inclusive time: a sample counts once for every distinct function on its stack.
const parent = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
const label = (node: Node) => {
  const where = node.callFrame.url ? `${node.callFrame.url.replace(/^.*\/(node_modules|server)\//, '$1/')}:${node.callFrame.lineNumber + 1}` : '';
  return `${node.callFrame.functionName || '(anonymous)'} ${where}`;
};
const inclusive = new Map<string, number>();
for (const [id, time] of self) {
  const seen = new Set<string>();
  for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
    const key = label(byId.get(at)!);
    if (seen.has(key)) continue;
    seen.add(key);
    inclusive.set(key, (inclusive.get(key) ?? 0) + time);
  }
}

const pct = (t: number) => `${((t / total) * 100).toFixed(1).padStart(5)}%`;
console.log(`${file}: ${(total / 1e6).toFixed(1)} s sampled`);
console.log('\nSelf time by area:');
for (const [a, t] of [...areas].sort((x, y) => y[1] - x[1]).slice(0, top)) console.log(`  ${pct(t)}  ${a}`);
console.log('\nTop functions by self time:');
for (const [f, t] of [...functions].sort((x, y) => y[1] - x[1]).slice(0, top)) console.log(`  ${pct(t)}  ${f}`);
console.log('\nTop functions by inclusive time (server code and packages, not Node internals):');
for (const [f, t] of [...inclusive]
  .filter(([f]) => /(server|node_modules)\//.test(f))
  .sort((x, y) => y[1] - x[1])
  .slice(0, top))
  console.log(`  ${pct(t)}  ${f}`);
