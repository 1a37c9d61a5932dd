// The DOM around the canvas: toolbar, banners, header facts, panic line, legend.
import type { FactMsg, PanicMsg, TimelineCommandId, ThreadMsg, VerdictMsg } from '../protocol';
import type { FormatTraits, UnitWords } from '../../replay-engine/model/format-traits';
import { custom, h } from '../shared/dom';

export interface ToolbarButton {
  id: TimelineCommandId;
  label: string;
  primary?: boolean;
  title: string;
}

export function toolbarButtons(traits: FormatTraits, hasPanic: boolean): ToolbarButton[] {
  const buttons: ToolbarButton[] = [
    {
      id: 'replayToPanic',
      // Always this name: it is the command users know, and a trace shown without machin's
      // results may still panic. A run that does not panic stops at its end and says so.
      label: 'Replay to Panic',
      primary: true,
      title: hasPanic
        ? 'Start a debug session and stop at the panic'
        : 'Start a debug session and stop at the panic, or at the end of the recording if the run did not panic',
    },
    { id: 'stepBackInto', label: 'Step Back Into', title: 'Step back one op (debug session)' },
    { id: 'stepBackOut', label: 'Step Back Out', title: 'Step back out of the current thread' },
    { id: 'runBackToCursor', label: 'Run Back to Cursor', title: 'Run backwards to the selected position' },
    { id: 'openVariableHistory', label: 'Variable History', title: 'Every value a variable took' },
  ];
  // The format's own action: Replay Against Build for a capsule (`tin replay --against`), Open as Text for a trace.
  buttons.push({ ...traits.viewAction });
  return buttons;
}

export function renderToolbar(buttons: ToolbarButton[], onCommand: (id: TimelineCommandId) => void): HTMLElement {
  const bar = h('div', { class: 'toolbar', role: 'toolbar', 'aria-label': 'Frozen Run timeline' });
  for (const b of buttons) {
    const el = custom('vscode-button', { secondary: !b.primary, title: b.title, 'data-command': b.id }, b.label);
    el.addEventListener('click', () => onCommand(b.id));
    bar.appendChild(el);
  }
  return bar;
}

export function renderFacts(fileName: string, facts: FactMsg[]): HTMLElement {
  const dl = h('dl', { class: 'facts', 'aria-label': 'Recording facts' });
  dl.appendChild(h('div', {}, h('dt', {}, 'file'), h('dd', {}, fileName)));
  for (const f of facts) dl.appendChild(h('div', { class: f.key === 'recordedProgram' ? 'secondary' : undefined, 'data-fact': f.key }, h('dt', {}, f.label || f.key), h('dd', {}, f.value)));
  return dl;
}

export function renderPanicLine(panic: PanicMsg | null, threads: ThreadMsg[], stepCount: number, units: UnitWords): HTMLElement | null {
  if (!panic) return null;
  const t = threads[panic.thread];
  const kind = units.thread;
  const who = t ? (t.label ? `${kind} ${t.id} ${t.label}` : `${kind} ${t.id}`) : `${kind} ${panic.thread}`;
  return h('div', { class: 'panic-line', role: 'note' }, `panic: ${panic.message}  (${who}, after ${panic.position}/${stepCount} ${units.steps})`);
}

/** The verify verdict with its numbers, beside the header facts (FAITHFUL or DIVERGED). */
export function renderVerdict(v: VerdictMsg): HTMLElement {
  return h(
    'div',
    { class: `verdict ${(v.tone ?? (v.verdict === 'FAITHFUL' ? 'faithful' : 'diverged'))}`, role: 'note', 'aria-label': 'Verify verdict' },
    h('strong', {}, `${v.label ?? 'verify'}: ${v.verdict}`),
    ` · ${v.detail}`,
  );
}

/** One line on what the missing toolchain would add, with a button that opens its setting. */
export function renderToolchainNote(text: string, onOpenSetting: () => void): HTMLElement {
  const b = custom('vscode-button', { secondary: true, 'data-command': 'openMachinSetting', title: 'Open the frozenRun.machinPath setting' }, 'Set machin Path…');
  b.addEventListener('click', onOpenSetting);
  return h('div', { class: 'toolchain-note', role: 'note' }, h('span', {}, text), b);
}

export function renderLegend(traits: FormatTraits, hasPanic: boolean): HTMLElement {
  const u = traits.units;
  const item = (cls: string, text: string) => h('span', {}, h('span', { class: `swatch ${cls}`, 'aria-hidden': 'true' }), text);
  return h(
    'div',
    { class: 'legend' },
    item('step', u.stepLong),
    traits.otherRecord ? item('io', traits.otherRecord) : null,
    hasPanic ? item('chain', `causal chain (tinted lanes, outlined ${u.steps})`) : null,
    item('cursor', 'debug cursor'),
    hasPanic ? item('panic', 'panic') : null,
    item('divergence', 'divergence'),
    h('span', {}, `wheel: zoom · shift+wheel or drag: pan · arrows, +/−, Home/End, Enter: go to · /: find a ${u.thread}`),
  );
}

export function renderBanner(text: string): HTMLElement {
  return h('div', { class: 'banner', role: 'status' }, text);
}
