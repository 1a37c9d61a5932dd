// `frozen-run secret FILE.tcap TEXT` and `frozen-run against FILE.tcap BUILD`: the capsule
// commands that need the key. Keys are never printed; TEXT `-` reads the candidate from stdin so
// it need not appear in the process list or shell history.
//
// Exit status: secret: 0 the text is the secret behind a handle, 3 it is not, 1 the capsule cannot
// be read, 2 usage. against: tin's own (0 faithful, 3 diverged or effects left, 4 tin could not
// read the capsule, 2 tin usage), 1 when it could not be run (no tin, no key, wrong key, ...), 2 usage.
import { readFileSync } from 'node:fs';
import type { OpenOptions } from '../open-options';
import { authenticatedKey, openCapsuleFile } from '../tcap/read-capsule';
import { checkSecret } from '../tcap/secret';
import { findTin } from '../tin/find-tin';
import type { ReplayReport } from '../tin/replay-report';
import { checkReplayRequest, runTinReplay } from '../tin/tin-replay';
import { parse, type Options } from './args';
import { capsuleLimitMB, timeLimitMs } from '../option-values';
import { UsageError } from '../model/errors';
import { writeText } from './printable';

export const TCAP_USAGE = `usage:
  frozen-run secret FILE.tcap TEXT [--key HEX | --key-file PATH] [--json]
      is TEXT (or, with -, the text on stdin) the secret behind a handle in the capsule?
      exit 0 yes, 3 no, 1 the capsule cannot be read
  frozen-run against FILE.tcap BUILD [--live KIND]... [--save-test NAME --issue N]
                     [--key HEX | --key-file PATH] [--tin PATH] [--time-limit S] [--json]
      runs \`tin replay FILE --against BUILD\` and reports status, divergence, effects not served
      exit as tin: 0 faithful, 3 diverged or effects left, 4 tin cannot read the capsule`;

const KEY_OPTIONS: Options = {
  key: { type: 'string' },
  'key-file': { type: 'string' },
  json: { type: 'boolean' },
  'capsule-limit-mb': { type: 'string' },
};

function keyOptions(values: Record<string, string | boolean | undefined>): OpenOptions {
  if (values.key !== undefined && values['key-file'] !== undefined) throw new UsageError('give --key or --key-file, not both');
  return { keyHex: values.key as string | undefined, keyFile: values['key-file'] as string | undefined, env: process.env, capsuleSizeLimitMB: capsuleLimitMB(values['capsule-limit-mb']) };
}

export async function runTcapCommand(cmd: 'secret' | 'against', argv: string[]): Promise<number> {
  return cmd === 'secret' ? runSecret(argv) : runAgainst(argv);
}

async function runSecret(argv: string[]): Promise<number> {
  const { positionals, values } = parse(argv, KEY_OPTIONS, { min: 2, max: 2, names: 'FILE.tcap and TEXT' });
  const [file, textArg] = positionals;
  const candidate = textArg === '-' ? readFileSync(0, 'utf8').replace(/\r?\n$/, '') : textArg;
  const rec = await openCapsuleFile(file, keyOptions(values));
  const result = checkSecret(rec, candidate);
  if (values.json === true) {
    process.stdout.write(`${JSON.stringify({ matches: result.matches, handles: result.handles }, null, 2)}\n`);
  } else if (result.matches.length) {
    for (const m of result.matches) writeText(process.stdout, `yes: the text is the secret behind ${m.handle} (${m.where})\n`);
  } else {
    process.stdout.write(`no: the text is not the secret behind any of the ${result.handles.length} handle${result.handles.length === 1 ? '' : 's'} in this capsule\n`);
  }
  return result.matches.length ? 0 : 3;
}

const AGAINST_OPTIONS: Options = {
  ...KEY_OPTIONS,
  live: { type: 'string', multiple: true },
  'save-test': { type: 'string' },
  issue: { type: 'string' },
  tin: { type: 'string' },
  'time-limit': { type: 'string' },
};

async function runAgainst(argv: string[]): Promise<number> {
  const { positionals, values } = parse(argv, AGAINST_OPTIONS, { min: 2, max: 2, names: 'FILE.tcap and BUILD' });
  const [capsule, build] = positionals;
  const name = values['save-test'] as string | undefined;
  const issueText = values.issue as string | undefined;
  if ((name === undefined) !== (issueText === undefined)) throw new UsageError('--save-test NAME and --issue N go together');
  if (issueText !== undefined && !/^\d+$/.test(issueText)) throw new UsageError(`--issue wants an issue number, got \`${issueText}\``);
  const live = ((values.live as unknown as string[] | undefined) ?? []).slice();
  const request = { capsule, build, live, saveTest: name !== undefined ? { name, issue: Number(issueText) } : undefined };
  // Everything that can be checked is checked before tin runs: arguments, tin, the key (by the tag).
  checkReplayRequest(request);
  const tin = findTin({ tinPath: values.tin as string | undefined });
  const key = await authenticatedKey(capsule, keyOptions(values));
  const report = await runTinReplay({
    ...request,
    tin,
    key: key.key,
    cwd: process.cwd(),
    timeLimitMs: timeLimitMs(values['time-limit']),
  });
  if (values.json === true) {
    process.stdout.write(`${JSON.stringify(reportJson(report), null, 2)}\n`);
  } else {
    writeText(process.stdout, reportText(report));
    writeText(process.stderr, `frozen-run: ${verdict(report)}\n`);
  }
  return report.exitCode;
}

function reportJson(r: ReplayReport): object {
  return {
    outcome: r.outcome,
    exitCode: r.exitCode,
    status: r.status ?? null,
    recordedStatus: r.recordedStatus ?? null,
    divergence: r.divergence ?? null,
    notServed: r.notServed,
    body: r.body,
    ...(r.message ? { message: r.message } : {}),
  };
}

/** tin's report in its documented form (the verdict goes to stderr). */
function reportText(r: ReplayReport): string {
  const lines: string[] = [];
  if (r.status !== undefined) lines.push(`replay: status ${r.status} (recorded ${r.recordedStatus})`);
  if (r.divergence) {
    const d = r.divergence;
    const got = `${d.got.kind} ${JSON.stringify(d.got.key)}`;
    lines.push(`replay: divergence at effect ${d.effect}: got ${got}, recorded ${d.recorded ? `${d.recorded.kind} ${JSON.stringify(d.recorded.key)}` : 'nothing more'}`);
  }
  if (r.notServed) lines.push(`replay: ${r.notServed} recorded effects not served`);
  const body = r.body === '' || r.body.endsWith('\n') ? r.body : `${r.body}\n`;
  return `${lines.map((l) => `${l}\n`).join('')}${body}`;
}

function verdict(r: ReplayReport): string {
  return (
    r.outcome === 'faithful' ? 'faithful: nothing diverged and every recorded effect was used'
    : r.outcome === 'diverged' ? (r.divergence ? `diverged at effect ${r.divergence.effect}` : `${r.notServed} recorded effects left unused`)
    : r.outcome === 'unreadable' ? `tin could not read the capsule: ${r.message ?? ''}`
    : r.outcome === 'usage' ? `tin refused the arguments: ${r.message ?? ''}`
    : `tin failed (exit ${r.exitCode}): ${r.message ?? ''}`
  );
}
