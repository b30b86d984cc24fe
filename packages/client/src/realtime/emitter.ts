/** A minimal typed event emitter; a throwing handler does not stop the others. */
export class Emitter<EventMap extends object> {
  private readonly handlers = new Map<keyof EventMap, Set<(event: never) => void>>();

  on<Type extends keyof EventMap>(type: Type, handler: (event: EventMap[Type]) => void): () => void {
    let set = this.handlers.get(type);
    if (set === undefined) {
      set = new Set();
      this.handlers.set(type, set);
    }
    set.add(handler as (event: never) => void);
    return () => {
      set.delete(handler as (event: never) => void);
    };
  }

  emit<Type extends keyof EventMap>(type: Type, event: EventMap[Type]): void {
    const set = this.handlers.get(type);
    if (set === undefined) return;
    for (const handler of [...set]) {
      try {
        (handler as (event: EventMap[Type]) => void)(event);
      } catch (error) {
        // One broken subscriber (a screen) must not stop the store or the others from updating.
        console.error(error);
      }
    }
  }
}
