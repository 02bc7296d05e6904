import { useMemo, useState } from 'react';
import { Background, Controls, MiniMap, ReactFlow, ReactFlowProvider } from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import Box from '@mui/material/Box';
import { funnelGraph, layoutFunnel } from './funnel-graph';
import { InitialView } from './InitialView';
import { RoutedEdge } from './MapEdge';
import { VideoNode } from './MapNode';
import { FOCUS, FocusedEdge, type FunnelMapProps, type VideoNodeData } from './map-shared';
import { useFlowElements } from './useFlowElements';
import { useMapInteractions } from './useMapInteractions';

export type { FunnelMapProps } from './map-shared';

const nodeTypes = { video: VideoNode };
const edgeTypes = { routed: RoutedEdge };

/** The funnel as a graph: videos as nodes, branch buttons and inaction defaults as labelled edges. */
export const FunnelMap = (props: FunnelMapProps) => {
  if (props.videos.length === 0) {
    return (
      <Box sx={{ p: 4, textAlign: 'center', color: 'text.secondary' }} data-testid="funnel-map-empty">
        Add videos to see the funnel map.
      </Box>
    );
  }
  return (
    <ReactFlowProvider>
      <MapView {...props} />
    </ReactFlowProvider>
  );
};

/** The laid-out map: React Flow with its nodes, edges, controls, and a minimap when the map is bigger than the view. */
const MapView = ({ videos, onOpen, stats, height = 560, label = 'Funnel map' }: FunnelMapProps) => {
  const layout = useMemo(() => layoutFunnel(funnelGraph(videos), { labelLines: stats ? 2 : 1 }), [videos, stats]);
  const byId = useMemo(() => new Map(layout.nodes.map((n) => [n.id, n])), [layout]);
  const edgeById = useMemo(() => new Map(layout.edges.map((e) => [e.id, e])), [layout]);
  const { nodes, edges } = useFlowElements(layout, byId, stats, onOpen);
  const { focusedEdge, onFocus, onBlur, onKeyDown, open, openEdge } = useMapInteractions({ layout, byId, edgeById, videos, onOpen });
  const [big, setBig] = useState(false);

  return (
    <Box
      sx={{
        height,
        border: 1,
        borderColor: 'divider',
        borderRadius: 1,
        bgcolor: '#fafafa',
        '& .react-flow__attribution a': { color: '#1f2328' },
        '& .react-flow__edge:focus, & .react-flow__edge:focus-visible': { outline: 'none' },
        '& .react-flow__node:focus-visible': { outline: `3px solid ${FOCUS}`, outlineOffset: 2, borderRadius: 2 },
      }}
      onKeyDown={onKeyDown}
      onFocus={onFocus}
      onBlur={onBlur}
      aria-label={label}
      role="region"
      data-testid="funnel-map"
    >
      <FocusedEdge.Provider value={focusedEdge}>
        <ReactFlow
          nodes={nodes}
          edges={edges}
          nodeTypes={nodeTypes}
          edgeTypes={edgeTypes}
          onNodeClick={(_, node) => open(node.id)}
          onEdgeClick={onOpen ? (_, edge) => openEdge(edge.id) : undefined}
          nodesDraggable={false}
          nodesConnectable={false}
          elementsSelectable={false}
          nodesFocusable
          edgesFocusable
          autoPanOnNodeFocus={false}
          minZoom={0.1}
          maxZoom={1.5}
          ariaLabelConfig={{
            'node.a11yDescription.default': onOpen
              ? 'Press Enter to open this video in the editor; Right arrow goes to its branches.'
              : 'A video of the funnel; Right arrow goes to its branches.',
            'edge.a11yDescription.default': onOpen
              ? 'Press Enter to edit this branch in its video; Right arrow goes to where it leads, Left arrow to its video, Up and Down arrows to the video’s other branches.'
              : 'Right arrow goes to where it leads, Left arrow to its video, Up and Down arrows to the video’s other branches.',
            'minimap.ariaLabel': 'Overview of the whole map',
          }}
        >
          <InitialView layout={layout} onBig={setBig} />
          <Background gap={24} color="#d5d7db" />
          <Controls showInteractive={false} />
          {big && <MiniMap pannable zoomable nodeColor={(n) => ((n.data as VideoNodeData).node.root ? '#1b5e20' : '#b8bcc4')} />}
        </ReactFlow>
      </FocusedEdge.Provider>
    </Box>
  );
};
