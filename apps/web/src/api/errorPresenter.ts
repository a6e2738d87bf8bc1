/**
 * How request errors reach the screen (docs/product/errors.md). The app registers the real presenter (antd
 * message/modal, translated) at start; until then errors are only logged to the console.
 */
export interface ErrorPresenter {
  /** Network error, 500 or 503: maintenance alert, then logout. */
  maintenance(): void;
  /** 401: "Login status has expired, please login again", then logout. */
  expired(): void;
  /** 403: info "Resource Unavailable". */
  forbidden(): void;
  /** 404: "Resource does not exist". */
  notFound(): void;
  /** Any other status: error toast with the server's message. */
  serverMessage(msg: string): void;
}

let presenter: ErrorPresenter | null = null;

export function setErrorPresenter(p: ErrorPresenter | null): void {
  presenter = p;
}

export function getErrorPresenter(): ErrorPresenter | null {
  return presenter;
}
