import { FileX } from 'lucide-react';
import { DeadEnd } from '../../components/dead-end';

/** The post page's dead ends: 'Post not found', 'Post ID is required', a failed load. */
export function PostMessage(props: { title: string; retry?: () => void }) {
  return <DeadEnd icon={FileX} {...props} />;
}
