// The test's side of the protocol for the timeline: what the extension host answers, backed by
// a Recording the engine read (never by canned view data).
import type { Page } from 'playwright-core';
import type { Recording } from '../../../replay-engine/model/recording';
import { packModel, type TimelineModel } from '../../../webview-ui/protocol';

export async function postModel(page: Page, model: TimelineModel): Promise<void> {
  const b64 = Buffer.from(packModel(model)).toString('base64');
  await page.evaluate((data) => (window as unknown as { harness: { postModelBase64(b: string): void } }).harness.postModelBase64(data), b64);
}

export async function postToView(page: Page, message: unknown): Promise<void> {
  await page.evaluate((m) => (window as unknown as { harness: { post(m: unknown): void } }).harness.post(m), message);
}

/** A host that answers `ready` with the model and `requestDetails` with the engine's RecordView. */
export function timelineHost(recording: Recording, model: TimelineModel) {
  return async (m: Record<string, unknown>, page: Page): Promise<void> => {
    if (m.type === 'ready') await postModel(page, model);
    if (m.type === 'requestDetails' && typeof m.record === 'number') {
      const view = recording.describe(m.record);
      await postToView(page, { type: 'recordDetails', record: m.record, view });
    }
  };
}
