import { useMutation, useQuery } from '@tanstack/react-query';
import { drawing, drawingsPath, type DrawingApp, type DrawingSave } from '@cellcloud/contracts/drawings';
import { request } from './client';

export function useDrawing(app: DrawingApp) {
  return useQuery({
    queryKey: ['drawings', app],
    queryFn: () => request(drawingsPath(app), { schema: drawing }),
    staleTime: Infinity,
  });
}

export function useSaveDrawing(app: DrawingApp) {
  return useMutation({
    mutationFn: (body: DrawingSave) => request(drawingsPath(app), { method: 'PUT', body, schema: drawing }),
  });
}
