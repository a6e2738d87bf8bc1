import { QueryClient } from '@tanstack/react-query';

/** Errors are already shown by the request client (docs/product/errors.md), so queries do not retry on 4xx. */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      refetchOnWindowFocus: false,
      retry: false,
    },
    mutations: { retry: false },
  },
});
