// Typed wrapper over acquireVsCodeApi: protocol-checked posts and the persisted panel state.
import { isWebviewState, type FromWebview, type WebviewState } from '../src/protocol/messages';

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

type Body<T extends FromWebview['type']> = Omit<Extract<FromWebview, { type: T }>, 'type'>;

export interface WebviewApi {
  post<T extends FromWebview['type']>(type: T, body: Body<T>): void;
  /** Saved so the panel serializer reopens the same transcript after a window reload. */
  setState(state: WebviewState): void;
  getState(): WebviewState | undefined;
}

export function createApi(): WebviewApi {
  // acquireVsCodeApi may be called only once per page load.
  const vscode = acquireVsCodeApi();
  return {
    post: (type, body) => vscode.postMessage({ ...body, type }),
    setState: (state) => vscode.setState(state),
    getState: () => {
      const state = vscode.getState();
      return isWebviewState(state) ? state : undefined;
    },
  };
}
