// What a school rule hands on as news: a candidate for an event. The event memory (src/once/)
// remembers its `id`, so an item fires only once; its payload holds the fields an automation reads (the event
// gate adds the event's type). Declared here, below the engine and the features that pass it on, so that a rule
// names its news without reaching into the memory that keeps it.

/**
 * A candidate for an event: its id, and what the event carries. `quiet`: already true when its kind was first
 * read (an achievement), remembered as such and never told, so that the memory knows it from one that was told.
 */
export interface NewsItem<P = Record<string, unknown>> {
  id: string;
  payload: P;
  quiet?: true;
}
