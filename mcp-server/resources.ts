// The recordings the server holds, as MCP resources: `frozen-run://recording/r1` (listed in the
// order they were used), read as open_recording's summary JSON. The list changes as recordings are
// opened and let go, and the server says so (notifications/resources/list_changed).
import { ResourceTemplate, type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { RecordingError } from '../replay-engine/model/errors';
import { fitAnswer, pageBytes } from './fit-answer';
import type { HeldRecordings } from './held-recordings';
import { summaryJson } from './summary';

export const RECORDING_URI = 'frozen-run://recording/';

export function registerRecordingResources(server: McpServer, held: HeldRecordings, toolchain: boolean): void {
  server.registerResource(
    'recording',
    new ResourceTemplate(`${RECORDING_URI}{handle}`, {
      list: () => ({
        resources: held.held.map((h) => ({
          uri: `${RECORDING_URI}${h.handle}`,
          name: h.handle,
          title: `${h.handle}: ${h.file}`,
          description: `${h.recording.timeline.traits.name} ${h.file}, ${h.recording.timeline.stepCount} ${h.recording.timeline.units.stepsLong}`,
          mimeType: 'application/json',
        })),
      }),
    }),
    { title: 'Open recordings', description: 'The recordings this server holds open (open_recording adds them), read as their summary', mimeType: 'application/json' },
    async (uri, vars) => {
      const handle = String(vars.handle);
      if (!held.handles.includes(handle)) {
        throw new RecordingError('usage', `no open recording ${handle} (open: ${held.handles.join(', ') || 'none'}); call open_recording with the file's path`);
      }
      const h = await held.get(handle);
      return { contents: [{ uri: uri.href, mimeType: 'application/json', text: fitAnswer(summaryJson(h, toolchain) as Record<string, unknown>, pageBytes()).text }] };
    },
  );
  held.onChange = () => server.sendResourceListChanged();
}
