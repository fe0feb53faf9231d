// One child as the dashboard sees it: what the bridge announces for it, and its entities looked up by the
// features' declarations. The features' blocks (cards.ts) and the templates they fill (templates.ts) both read
// a child through it.
import { entityId, type EntityDef } from '../kit/entities.js';

export interface DashboardChild {
  /** The child id <c> of topics and entity ids. */
  id: string;
  /** Shown as the view's title and above the child's column. */
  name: string;
  /** What the bridge announces for this child (discovery's components): without the modules the portal refuses it. */
  entities: readonly EntityDef[];
  /** A school child, or a kindergarten child (a day of blocks, no grades), as the bridge last found; a school's when not known. */
  kind?: 'school' | 'kindergarten';
}

/**
 * A child's entities, looked up by the features' declarations (never by a key spelled here); `id`
 * throws for one the child lacks, so no card can name it.
 */
export class ChildEntities {
  private readonly byKey: Map<string, EntityDef>;

  constructor(readonly child: DashboardChild) {
    this.byKey = new Map(child.entities.map((e) => [e.key, e]));
  }

  /** A kindergarten child: its card speaks of a kindergarten's day and has no school boxes. */
  get preschool(): boolean {
    return this.child.kind === 'kindergarten';
  }

  has(...entities: readonly EntityDef[]): boolean {
    return entities.every((e) => this.byKey.has(e.key));
  }

  id(declared: EntityDef): string {
    const entity = this.byKey.get(declared.key);
    if (!entity) throw new Error(`dashboard: ${this.child.id} has no entity ${declared.key}`);
    return entityId(this.child.id, entity);
  }
}
