// Every command the extension registers, by id (no vscode import, so the manifest test can hold
// package.json against it). `INTERNAL` ones are run by the views, not offered in the palette.
export const COMMAND_IDS = [
  'frozenRun.replayToPanic',
  'frozenRun.replayToHere',
  'frozenRun.openVariableHistory',
  'frozenRun.replayAgainstBuild',
  'frozenRun.saveAsRegressionTest',
  'frozenRun.setCapsuleKey',
  'frozenRun.forgetCapsuleKey',
  'frozenRun.testSecret',
  'frozenRun.compareWith',
  'frozenRun.showToolchainOutput',
  'frozenRun.reverseContinue',
  'frozenRun.stepBack',
  'frozenRun.stepBackInto',
  'frozenRun.stepBackOut',
  'frozenRun.runBackToCursor',
  'frozenRun.openAsText',
  'frozenRun.openTimeline',
  'frozenRun.debugActiveRecording',
  'frozenRun.gotoPosition',
  'frozenRun.openMachinSetting',
  'frozenRun.openTinSetting',
  'frozenRun.capsules.filter',
  'frozenRun.capsules.clearFilter',
  'frozenRun.capsules.addFolder',
  'frozenRun.capsules.refresh',
  'frozenRun.capsules.setFolderKey',
  'frozenRun.capsules.removeFolder',
  'frozenRun.toggleLineHitCounts',
  'frozenRun.hits.filter',
  'frozenRun.goToStatement',
  'frozenRun.hits.show',
  'frozenRun.hits.more',
  'frozenRun.goToLogPointHit',
  'frozenRun.valueOrigin',
] as const;

export type CommandId = (typeof COMMAND_IDS)[number];

/** Registered, but not contributed to package.json: the timeline's and the history's click. */
export const INTERNAL: ReadonlySet<CommandId> = new Set<CommandId>(['frozenRun.goToStatement', 'frozenRun.hits.more', 'frozenRun.gotoPosition', 'frozenRun.openMachinSetting', 'frozenRun.openTinSetting']);
