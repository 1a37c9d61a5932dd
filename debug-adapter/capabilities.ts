// What the adapter tells the client it can do (the `initialize` response's body).
import type { DebugProtocol } from '@vscode/debugprotocol';
import { EXCEPTION_FILTERS } from './breakpoints';

/**
 * `ownReverseButtons`: the client shows its own reverse buttons (the extension's), so
 * `supportsStepBack` is not announced and VS Code adds none of its own.
 */
export function capabilities(ownReverseButtons: boolean): DebugProtocol.Capabilities {
  return {
    supportsConfigurationDoneRequest: true,
    supportsStepBack: !ownReverseButtons,
    supportsGotoTargetsRequest: true,
    supportsRestartRequest: true,
    supportsConditionalBreakpoints: true,
    supportsHitConditionalBreakpoints: true,
    supportsLogPoints: true,
    supportsFunctionBreakpoints: true,
    supportsDataBreakpoints: true,
    supportsEvaluateForHovers: true,
    supportsExceptionInfoRequest: true,
    supportsTerminateRequest: true,
    supportsLoadedSourcesRequest: true,
    supportsDelayedStackTraceLoading: false,
    supportsValueFormattingOptions: false,
    exceptionBreakpointFilters: EXCEPTION_FILTERS.map((f) => ({ filter: f.filter, label: f.label, description: f.description, default: f.default })),
  };
}
