// Fast tier: the lucky number, asked only until the number for today or the next school day is known.
import { luckyNumberResponse } from '../../portal/schemas/identity.js';
import { luckyEntities, luckyRecheckDue, readLucky, type LuckyNumber } from '../../school/lucky.js';
import type { Source, SourceContext, SourceResult } from '../source.js';

export class LuckySource implements Source {
  readonly name = 'lucky';
  readonly tier = 'fast';
  readonly entities = ['lucky_number', 'lucky_today'];
  private lucky: LuckyNumber | undefined;
  private askedAt = 0;

  due(ctx: SourceContext): boolean {
    return ctx.forced || luckyRecheckDue(this.lucky, ctx.today, this.askedAt, ctx.now);
  }

  async poll(ctx: SourceContext): Promise<SourceResult> {
    const { LuckyNumber: raw } = await ctx.gateway.get('LuckyNumbers', luckyNumberResponse);
    this.askedAt = ctx.now;
    this.lucky = readLucky(raw);
    return { states: this.states(ctx.today, ctx.identity.registerNumber) };
  }

  /** The states as of today without asking the portal (the day may have moved on since). */
  restate(ctx: SourceContext): SourceResult['states'] {
    return this.states(ctx.today, ctx.identity.registerNumber);
  }

  private states(today: string, registerNumber: string | undefined): SourceResult['states'] {
    return luckyEntities(this.lucky, registerNumber, today);
  }
}
