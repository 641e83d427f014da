// Scroll (wheel), zoom (Ctrl+wheel or pinch, about the pointer), pan (drag) of the graph, fit to
// screen, and centring on a set of boxes. The transform is an SVG attribute on the viewport group (no inline styles).
import type { Box } from './layout';


export class PanZoom {
    private scale = 1;
    private x = 0;
    private y = 0;
    private drag: { x: number; y: number; moved: boolean } | undefined;
    /** Set when the last pointer-down turned into a drag, so the click after it is ignored. */
    dragged = false;
    /** The canvas' size when the view was last set (a resize keeps what was in its middle there). */
    private size: { width: number; height: number } | undefined;

    constructor(private readonly svg: SVGSVGElement, private readonly viewport: SVGGElement) {
        svg.addEventListener('wheel', (event) => {
            event.preventDefault();
            if (event.ctrlKey || event.metaKey) {
                const rect = svg.getBoundingClientRect();
                this.zoomAbout(event.clientX - rect.left, event.clientY - rect.top, Math.exp(-event.deltaY * 0.002));
            } else {
                // a long function reads like its source: the wheel scrolls (Shift: sideways)
                this.x -= event.shiftKey ? event.deltaY : event.deltaX;
                this.y -= event.shiftKey ? 0 : event.deltaY;
                this.apply();
            }
        }, { passive: false });
        svg.addEventListener('pointerdown', (event) => {
            if (event.button === 0) {
                this.drag = { x: event.clientX, y: event.clientY, moved: false };
                this.dragged = false;
            }
        });
        svg.addEventListener('pointermove', (event) => {
            if (!this.drag) {
                return;
            }
            const dx = event.clientX - this.drag.x;
            const dy = event.clientY - this.drag.y;
            if (!this.drag.moved && Math.hypot(dx, dy) < 4) {
                return;
            }
            if (!this.drag.moved) {
                svg.setPointerCapture(event.pointerId);
            }
            this.drag = { x: event.clientX, y: event.clientY, moved: true };
            this.x += dx;
            this.y += dy;
            this.apply();
        });
        const end = () => {
            this.dragged = this.drag?.moved ?? false;
            this.drag = undefined;
        };
        svg.addEventListener('pointerup', end);
        svg.addEventListener('pointercancel', end);
    }

    zoomAbout(px: number, py: number, factor: number): void {
        const next = Math.min(4, Math.max(0.05, this.scale * factor));
        this.x = px - (px - this.x) * (next / this.scale);
        this.y = py - (py - this.y) * (next / this.scale);
        this.scale = next;
        this.apply();
    }

    zoomBy(factor: number): void {
        const rect = this.svg.getBoundingClientRect();
        this.zoomAbout(rect.width / 2, rect.height / 2, factor);
    }

    /** The whole drawing in view, never magnified past 1:1 (small graphs stay their size). */
    fit(margin = 24): void {
        const rect = this.svg.getBoundingClientRect();
        const box = this.viewport.getBBox();
        if (rect.width === 0 || rect.height === 0 || box.width === 0 || box.height === 0) {
            return;
        }
        this.scale = Math.min(1, (rect.width - 2 * margin) / box.width, (rect.height - 2 * margin) / box.height);
        this.x = (rect.width - box.width * this.scale) / 2 - box.x * this.scale;
        this.y = (rect.height - box.height * this.scale) / 2 - box.y * this.scale;
        this.apply();
    }

    /**
     * The first view of a graph: all of it when that is readable, else its start (the first
     * tasks in program order: the top, or the left) with the other axis fitted, but never
     * smaller than `readable`.
     */
    start(readable: number, alongX: boolean, margin = 24): void {
        const rect = this.svg.getBoundingClientRect();
        const box = this.viewport.getBBox();
        if (rect.width === 0 || rect.height === 0 || box.width === 0 || box.height === 0) {
            return;
        }
        const fitX = (rect.width - 2 * margin) / box.width;
        const fitY = (rect.height - 2 * margin) / box.height;
        if (Math.min(1, fitX, fitY) >= readable) {
            this.fit(margin);
            return;
        }
        this.scale = Math.max(readable, Math.min(1, alongX ? fitY : fitX));
        const place = (size: number, view: number, origin: number, atStart: boolean) =>
            (atStart || size * this.scale > view - 2 * margin ? margin : (view - size * this.scale) / 2) - origin * this.scale;
        this.x = place(box.width, rect.width, box.x, alongX);
        this.y = place(box.height, rect.height, box.y, !alongX);
        this.apply();
    }

    /** Brings the boxes into the middle of the view, zoomed in to `readable` at least, out if they do not fit. */
    centre(boxes: readonly Box[], readable: number): void {
        if (boxes.length === 0) {
            return;
        }
        const rect = this.svg.getBoundingClientRect();
        const left = Math.min(...boxes.map((b) => b.x));
        const top = Math.min(...boxes.map((b) => b.y));
        const right = Math.max(...boxes.map((b) => b.x + b.width));
        const bottom = Math.max(...boxes.map((b) => b.y + b.height));
        const needed = Math.min((rect.width - 48) / (right - left), (rect.height - 48) / (bottom - top));
        this.scale = Math.max(0.05, Math.min(Math.max(this.scale, readable), needed));
        this.x = rect.width / 2 - ((left + right) / 2) * this.scale;
        this.y = rect.height / 2 - ((top + bottom) / 2) * this.scale;
        this.apply();
    }

    get zoom(): number {
        return this.scale;
    }

    /** The canvas changed size: the same zoom, and what was in its middle stays there. */
    resized(): void {
        const rect = this.svg.getBoundingClientRect();
        if (this.size && rect.width > 0 && rect.height > 0) {
            this.x += (rect.width - this.size.width) / 2;
            this.y += (rect.height - this.size.height) / 2;
            this.apply();
        }
    }

    private apply(): void {
        const rect = this.svg.getBoundingClientRect();
        if (rect.width > 0 && rect.height > 0) {
            this.size = { width: rect.width, height: rect.height };
        }
        this.viewport.setAttribute('transform', `translate(${this.x.toFixed(1)},${this.y.toFixed(1)}) scale(${this.scale.toFixed(4)})`);
    }
}
