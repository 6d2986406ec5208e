// `runback export --otlp RECORD`: the record as OpenTelemetry traces, OTLP/JSON with the GenAI
// semantic conventions, built and serialized by @runback/otlp (the official OpenTelemetry
// SDK and OTLP JSON serializer). The record is verified first, with the given keys pinned;
// the verdict and digests go on the root span.
import { sha256Hex } from '@runback/canonical';
import { exportOtlp, OtlpError } from '@runback/otlp';
import { atomicWrite } from '@runback/sdk/fs';
import { readJsonStrict, verifyJson } from '@runback/verify';
import {
  escapeTerminal,
  loadTrust,
  makeStyle,
  TRUST_FLAG_OPTIONS,
  useColor,
} from '@runback/verify-cli';
import type { Command } from '../command.js';
import { parseCommandArgs } from '../command.js';
import { CliError, EXIT, messageOf, usageError } from '../errors.js';
import type { CommandIO } from '../log/io.js';
import { cliVersion } from '../version.js';

const usage = `Usage: runback export --otlp RECORD [--out FILE] [--service-name NAME] [--omit-content]
                      [--pubkey PEM]... [--revoked PEM]... [--key K | --key-file F] [--json]

Write a record as OpenTelemetry traces: one OTLP/JSON ExportTraceServiceRequest (what an
OTLP/HTTP exporter posts to /v1/traces), with the GenAI semantic conventions. The root span
is the run (gen_ai.operation.name invoke_agent) and carries the record's content and
cassette digests and its verify verdict; each llm event is a "chat" span (model, provider,
tokens, finish reason, messages) and each tool event an "execute_tool" span (tool name, call
id, arguments, result), parented as the record's spans are; other events (reasoning, env)
are span events. Each span also keeps its event's exact JSON (runback.event), so runback
import --otlp rebuilds the same record. Ids derive from the record: the same record gives
the same bytes. RECORD may be "-" for standard input.

Options:
  --otlp                 OTLP/JSON traces (the one export format; required)
  --out FILE             write to FILE, atomically (default: standard output)
  --service-name NAME    the resource's service.name (default: the run's name)
  --omit-content         leave out prompts, answers, tool arguments and results (and the
                         exact events): models, tokens, tool names, times, errors and the
                         proof facts only, for a backend that must not see content
  --pubkey PEM_FILE      pin a signer's public key for the verdict (repeatable); also
                         --revoked PEM_FILE, --key K / --key-file F (HMAC)
  --json                 with --out, print {out, run_id, trace_id, span_count, …, verdict}
  -h, --help             show this help

The export describes; it does not judge: it is written whatever the verdict.
Exit status: 0 written, 1 RECORD is not JSON or not a record, or could not write,
64 usage error.`;

async function run(argv: readonly string[], io: CommandIO): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    {
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        otlp: { type: 'boolean', default: false },
        out: { type: 'string' },
        'service-name': { type: 'string' },
        'omit-content': { type: 'boolean', default: false },
        ...TRUST_FLAG_OPTIONS,
        json: { type: 'boolean', default: false },
      },
    },
    { hmacKey: true },
  );
  if (!values.otlp)
    throw usageError('USAGE_NO_FORMAT', 'expected --otlp (the export format), got no format');
  if (positionals.length !== 1)
    throw usageError('USAGE_INPUT', `expected one RECORD, got ${positionals.length}`);
  const path = positionals[0] as string;
  const name = path === '-' ? '(stdin)' : path;
  const trust = await loadTrust(values, io);
  let bytes: Uint8Array;
  try {
    bytes = await io.readInput(path);
  } catch (err) {
    throw usageError('USAGE_UNREADABLE_INPUT', `cannot read ${name}: ${messageOf(err)}`);
  }
  const parsed = readJsonStrict(bytes);
  if (!parsed.ok) {
    throw new CliError('EXPORT_NOT_JSON', `cannot read ${name} as JSON: ${parsed.error.message}`, {
      details: { cause: parsed.error.code },
    });
  }
  const verification = verifyJson(bytes, trust);
  let result;
  try {
    result = exportOtlp(parsed.value, {
      verification,
      scopeVersion: cliVersion(),
      content: !values['omit-content'],
      ...(values['service-name'] === undefined ? {} : { serviceName: values['service-name'] }),
    });
  } catch (err) {
    if (err instanceof OtlpError)
      throw new CliError(err.code, `cannot export ${name}: ${err.message}`);
    throw err;
  }
  const runId = runIdOf(parsed.value);
  if (values.out === undefined || values.out === '-') {
    io.stdout(result.json + '\n');
    return EXIT.ok;
  }
  try {
    await atomicWrite(values.out, result.json + '\n');
  } catch (err) {
    throw new CliError('EXPORT_WRITE_FAILED', `cannot write ${values.out}: ${messageOf(err)}`, {
      hint: 'Check that the directory exists and is writable.',
    });
  }
  const summary = {
    out: values.out,
    run_id: runId,
    trace_id: result.traceId,
    span_count: result.spanCount,
    span_event_count: result.spanEventCount,
    verdict: verification.verdict,
    sha256: sha256Hex(result.json + '\n'),
  };
  if (values.json) {
    io.stdout(JSON.stringify(summary) + '\n');
  } else {
    const style = makeStyle(useColor(io));
    io.stdout(
      `${style.green('✓')} Exported ${escapeTerminal(runId)} (${verification.verdict}) as ${summary.span_count} span${summary.span_count === 1 ? '' : 's'} and ${summary.span_event_count} span event${summary.span_event_count === 1 ? '' : 's'}, trace ${summary.trace_id} → ${escapeTerminal(values.out)}\n`,
    );
  }
  return EXIT.ok;
}

function runIdOf(record: unknown): string {
  const manifest = (record as { manifest?: { run_id?: unknown } }).manifest;
  return typeof manifest?.run_id === 'string' ? manifest.run_id : '';
}

export const command: Command = { usage, run };
