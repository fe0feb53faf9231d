// Home Assistant's API as outputs of the running bridge, each started once the web server serves (a calendar's flow
// and Assist's entry fetch from it) and abandoned at a stop after its budget: the keeper of each child's calendars,
// homework list and Assist's entry (`homeassistant:`), the school year in its statistics (`homeassistant.statistics`),
// and under the Supervisor the MCP server announced or withdrawn (`ha_assist`). Each is a look loop (look-loop.ts)
// that subscribes to the bus.
import type { Sink } from '../../bus/bus.js';
import type { Output, OutputBridge, OutputKind } from '../output.js';
import { WEB } from '../web/output.js';
import type { LookLoop } from './look-loop.js';
import type { HomeAssistantKeeper } from './keeper.js';
import type { HomeAssistantStatistics } from './statistics/statistics.js';
import type { SupervisorAnnouncement } from './announcement.js';

/** A look loop as an output: `loop` is what a test waits for; `status`, its part of the diagnostics under its key. */
export interface LoopOutput<T extends LookLoop> extends Output {
  loop: T;
  idle(): Promise<void>;
}

/** What each of them is made with: the data folder, the clock, a log of its own. */
function kept({ config, clock, log }: OutputBridge, part: string) {
  return { dataDir: config.data_dir, clock, log: log.child({ part }) };
}

function looping<T extends LookLoop & Sink>(loop: T, status?: () => Record<string, unknown>): LoopOutput<T> {
  return { loop, sink: loop, start: () => loop.start(), stop: () => loop.stop(), idle: () => loop.idle(), ...(status ? { status } : {}) };
}

export const HOME_ASSISTANT: OutputKind<LoopOutput<HomeAssistantKeeper>> = {
  name: 'Home Assistant',
  runs: ({ config }) => config.homeassistant !== undefined,
  abandonable: true,
  make: async (bridge, made) => {
    const { config, children, handover: toldOn } = bridge;
    const { HomeAssistantKeeper } = await import('./keeper.js');
    const keeper = new HomeAssistantKeeper({
      ...kept(bridge, 'homeassistant'),
      config: config.homeassistant as NonNullable<typeof config.homeassistant>,
      language: config.language,
      handover: toldOn(),
      calendarFeedsServed: () => made.of(WEB)?.url !== undefined,
      // Nothing is removed before every child is known (none waits for its first name or its family's list).
      children: () => {
        const { ids, listed } = children();
        return { ids: ids.filter((id) => id !== undefined), complete: listed && ids.every((id) => id !== undefined) };
      },
    });
    return looping(keeper, () => ({ home_assistant: keeper.status() }));
  },
};

export const HOME_ASSISTANT_STATISTICS: OutputKind<LoopOutput<HomeAssistantStatistics>> = {
  name: "Home Assistant's statistics",
  runs: ({ config }) => config.homeassistant?.statistics === true,
  abandonable: true,
  make: async (bridge) => {
    const { HomeAssistantStatistics } = await import('./statistics/statistics.js');
    const config = bridge.config.homeassistant as NonNullable<typeof bridge.config.homeassistant>;
    const statistics = new HomeAssistantStatistics({ ...kept(bridge, 'statistics'), config });
    return looping(statistics, () => ({ home_assistant_statistics: statistics.status() }));
  },
};

export const SUPERVISOR_ANNOUNCEMENT: OutputKind<LoopOutput<SupervisorAnnouncement>> = {
  name: 'Supervisor',
  runs: ({ config }) => config.supervisor !== undefined && config.http.port !== 0,
  abandonable: true,
  make: async (bridge, made) => {
    const { SupervisorAnnouncement } = await import('./announcement.js');
    const supervisor = bridge.config.supervisor as NonNullable<typeof bridge.config.supervisor>;
    const announcement = new SupervisorAnnouncement({ ...kept(bridge, 'supervisor'), supervisor, served: () => made.of(WEB)?.url !== undefined });
    return looping(announcement);
  },
};
