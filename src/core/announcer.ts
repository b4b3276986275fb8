// One polite live region per widget, rendered from the first paint (a region created together
// with its text is not announced). Forms call announce(); the host renders `message` into it.
import type { ReactiveController, ReactiveControllerHost } from 'lit';

export class Announcer implements ReactiveController {
  message = '';
  #timer: ReturnType<typeof setTimeout> | undefined;

  readonly #host: ReactiveControllerHost;

  constructor(host: ReactiveControllerHost) {
    this.#host = host;
    host.addController(this);
  }

  /** Puts the text into the region; the same text twice is cleared first so it is read again. */
  announce(text: string): void {
    clearTimeout(this.#timer);
    if (text === this.message) {
      this.#set('');
      this.#timer = setTimeout(() => this.#set(text), 150);
    } else {
      this.#set(text);
    }
  }

  /** Empties the region: what it said belongs to a form no longer shown. */
  clear(): void {
    clearTimeout(this.#timer);
    if (this.message) this.#set('');
  }

  hostDisconnected(): void {
    clearTimeout(this.#timer);
  }

  #set(text: string): void {
    this.message = text;
    this.#host.requestUpdate();
  }
}
