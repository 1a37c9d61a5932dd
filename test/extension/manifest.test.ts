// The extension's package.json against its code: every contributed command is registered (the
// command table registers every id of extension/commands/ids.ts, and its type makes each have a
// handler), every menu item and keybinding names a declared command and has a `when` clause, the
// commands of issue 5 are all there, and the parts VS Code and vsce check (engines, types,
// trust, editors, debugger, languages for the adapter's served documents) are as they must be.
import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { KNOWN_LAUNCH_ATTRIBUTES } from '../../debug-adapter/launch-config';
import { machinCores } from '../../replay-engine/machin/replay-cores';
import { servedSource } from '../../debug-adapter/sources';
import { COMMAND_IDS, INTERNAL } from '../../extension/commands/ids';
import type { Recording } from '../../replay-engine/model/recording';
import { DEFAULT_CAPSULE_LIMIT_MB, MAX_CAPSULE_LIMIT_MB } from '../../replay-engine/tcap/size-limit';
import { FORMAT_TRAITS } from '../../replay-engine/model/format-traits';

const root = join(__dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const contributes = pkg.contributes;
const declared = new Set<string>(contributes.commands.map((c: { command: string }) => c.command));
const registered = new Set<string>(COMMAND_IDS);

test('every contributed command is registered by the extension', () => {
  for (const id of declared) assert.ok(registered.has(id), `${id} is contributed but never registered`);
});

test('every command the extension registers is contributed, or internal and kept out of the palette', () => {
  for (const id of COMMAND_IDS) assert.ok(declared.has(id) !== INTERNAL.has(id), `${id} is ${declared.has(id) ? 'internal but contributed' : 'registered but not contributed'}`);
});

test('the commands of the issue are in the palette, with titles a user recognises', () => {
  const titles = new Map<string, string>(contributes.commands.map((c: { command: string; title: string }) => [c.title, c.command]));
  for (const title of [
    'Replay to Panic', 'Open Variable History', 'Replay Against Build...', 'Save as Regression Test...', 'Set Capsule Key...',
    'Forget Capsule Key', 'Test a Secret...', 'Compare With...', 'Show Toolchain Output', 'Step Back Into', 'Step Back Out', 'Run Back to Cursor',
  ]) {
    assert.ok(titles.has(title), `no command titled ${title}`);
    const palette = contributes.menus.commandPalette.find((m: { command: string }) => m.command === titles.get(title));
    assert.ok(palette && palette.when && palette.when !== 'false', `${title} is hidden from the palette`);
  }
  for (const c of contributes.commands) assert.equal(c.category, 'Frozen Run', `${c.command} has no category`);
});

test('menu items and keybindings name declared commands and say when they apply', () => {
  for (const [menu, items] of Object.entries<Array<{ command: string; when?: string }>>(contributes.menus)) {
    for (const item of items) {
      assert.ok(declared.has(item.command), `${menu}: ${item.command} is not declared`);
      assert.ok(item.when, `${menu}: ${item.command} has no when clause`);
    }
  }
  for (const k of contributes.keybindings) {
    assert.ok(declared.has(k.command), `keybinding for undeclared ${k.command}`);
    assert.ok(k.when, `keybinding for ${k.command} has no when clause`);
  }
  // The five reverse buttons in their order, after VS Code's Step Out (40), before Restart (60).
  const items = contributes.menus['debug/toolBar'] as Array<{ command: string; group: string }>;
  const order = (g: string) => Number(/^navigation@(\d+)$/.exec(g)?.[1]);
  const toolbar = [...items].sort((a, b) => order(a.group) - order(b.group)).map((m) => m.command);
  assert.deepEqual(toolbar, ['frozenRun.reverseContinue', 'frozenRun.stepBack', 'frozenRun.stepBackInto', 'frozenRun.stepBackOut', 'frozenRun.runBackToCursor']);
  for (const m of items) assert.ok(order(m.group) > 40 && order(m.group) < 60, `${m.command} at ${m.group}`);
  for (const id of ['frozenRun.stepBackInto', 'frozenRun.stepBackOut', 'frozenRun.runBackToCursor']) {
    assert.ok(contributes.keybindings.some((k: { command: string }) => k.command === id), `${id} has no keybinding`);
  }
  // Own icons (never a forward one reused, never the same twice), disabled at the start, not hidden.
  const icons = toolbar.map((id) => JSON.stringify(contributes.commands.find((c: { command: string }) => c.command === id).icon));
  assert.equal(new Set(icons).size, icons.length, icons.join(' '));
  for (const icon of icons) assert.doesNotMatch(icon, /debug-step-(into|out|over)|debug-continue/);
  for (const id of toolbar) {
    const c = contributes.commands.find((x: { command: string }) => x.command === id);
    assert.match(c.enablement, /!frozenRun\.atStart/, id);
    assert.doesNotMatch(items.find((m) => m.command === id)!.group + ((items.find((m) => m.command === id) as { when?: string }).when ?? ''), /atStart/);
  }
});

test('engines, types and packaging agree (vsce refuses newer @types/vscode than the engine)', () => {
  const version = (v: string) => v.replace(/^[\^~]/, '').split('.').map(Number);
  const [major, minor] = version(pkg.engines.vscode);
  const [typesMajor, typesMinor] = version(pkg.devDependencies['@types/vscode']);
  assert.match(pkg.engines.vscode, /^\^\d+\.\d+\.\d+$/, 'engines.vscode is a caret range');
  assert.ok(typesMajor < major || (typesMajor === major && typesMinor <= minor), `@types/vscode ${pkg.devDependencies['@types/vscode']} is newer than engines.vscode ${pkg.engines.vscode}`);
  assert.equal(pkg.main, './dist/extension.js');
  assert.ok(statSync(join(root, pkg.icon)).isFile());
});

test('Restricted Mode is declared as limited support, with the toolchain settings restricted', () => {
  const u = pkg.capabilities.untrustedWorkspaces;
  assert.equal(u.supported, 'limited');
  assert.match(u.description, /trace-only|no toolchain/);
  assert.deepEqual([...u.restrictedConfigurations].sort(), ['frozenRun.machinPath', 'frozenRun.programRoots', 'frozenRun.tinPath']);
});

test('the timeline is the default editor of both formats', () => {
  const [editor] = contributes.customEditors;
  assert.equal(editor.viewType, 'frozenRun.timeline');
  assert.equal(editor.priority, 'default');
  assert.deepEqual(editor.selector.map((s: { filenamePattern: string }) => s.filenamePattern).sort(), ['*.mflrr', '*.tcap']);
});

test('the debugger: schema without keys, snippets, breakpoints in both documents and in .mfl programs', () => {
  const [dbg] = contributes.debuggers;
  assert.equal(dbg.type, 'frozen-run');
  const props = dbg.configurationAttributes.launch.properties;
  // Every attribute the adapter takes is in the schema (and so offered in launch.json), and no other.
  const schema = Object.keys(props).sort();
  assert.deepEqual(schema, [...KNOWN_LAUNCH_ATTRIBUTES].sort());
  for (const p of Object.keys(props)) assert.doesNotMatch(p, /key/i, 'a key attribute in the launch schema');
  assert.ok(dbg.configurationSnippets.length >= 2 && dbg.initialConfigurations.length >= 1);
  assert.deepEqual(contributes.breakpoints.map((b: { language: string }) => b.language).sort(), ['mfl', 'mflrr', 'tcap-decoded']);
});

test("the languages take the adapter's served documents by their mime types", () => {
  const fake = (format: 'mflrr' | 'tcap') => ({ timeline: { file: `/x/run.${format}`, format, traits: FORMAT_TRAITS[format] } }) as unknown as Recording;
  for (const [format, language] of [['mflrr', 'mflrr'], ['tcap', 'tcap-decoded']] as const) {
    const mime = servedSource(fake(format)).mimeType;
    const lang = contributes.languages.find((l: { id: string }) => l.id === language);
    assert.ok(lang?.mimetypes?.includes(mime), `${language} does not declare ${mime}`);
  }
});

test('settings: machin and tin paths, time limit, program roots, capsule size limit, the CPUs of machin replays', () => {
  const props = contributes.configuration.properties;
  assert.deepEqual(Object.keys(props).sort(), ['frozenRun.capsuleSizeLimitMB', 'frozenRun.machinPath', 'frozenRun.machinReplayCores', 'frozenRun.programRoots', 'frozenRun.timeLimitSeconds', 'frozenRun.tinPath']);
  assert.equal(props['frozenRun.timeLimitSeconds'].default, 60);
  // The engine's own choices (replay-engine/machin/replay-cores.ts), the same in the launch configuration.
  assert.deepEqual([props['frozenRun.machinReplayCores'].default, props['frozenRun.machinReplayCores'].enum], [machinCores(undefined, {}), ['one', 'any']]);
  const launchAttrs = contributes.debuggers[0].configurationAttributes.launch.properties;
  assert.deepEqual(launchAttrs.machinReplayCores.enum, ['one', 'any']);
  // The engine's own default and ceiling (replay-engine/tcap/size-limit.ts).
  assert.deepEqual([props['frozenRun.capsuleSizeLimitMB'].default, props['frozenRun.capsuleSizeLimitMB'].minimum, props['frozenRun.capsuleSizeLimitMB'].maximum], [DEFAULT_CAPSULE_LIMIT_MB, 1, MAX_CAPSULE_LIMIT_MB]);
});
