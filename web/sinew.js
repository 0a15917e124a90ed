// sinew in the browser: the JS API over the WebAssembly module
// (sinew-core.js/.wasm, built from the core, import and runtime libraries
// by `make web`) and a WebGL2 drawer: CPU-skinned vertices uploaded each
// frame, toon shading (two tones with a soft terminator) and outlines
// drawn as an inverted hull. docs/web.md documents the API.
//
//   import { createSinew } from './sinew.js';
//   const sinew = await createSinew(canvas);
//   await sinew.load('demo.glb');          // a URL, an ArrayBuffer or a File
//   sinew.play('wave', 0.3);               // crossfade to a clip over 0.3 s
//   sinew.setTime(0.5);                    // put the playing clip at 0.5 s
//   const { nodes } = sinew.pose('walk', 0.37);  // world matrices, glTF order
//   sinew.start();                         // play and draw every frame
import createSinewModule from './sinew-core.js';

const VERTEX_SHADER = `#version 300 es
layout(location = 0) in vec3 a_position;
layout(location = 1) in vec3 a_normal;
layout(location = 2) in vec2 a_uv;
uniform mat4 u_view_projection;
uniform float u_outline;      // 0: the surface; > 0: the hull, this many pixels wide
uniform vec2 u_viewport;
out vec3 v_normal;
out vec2 v_uv;
void main() {
    vec4 clip = u_view_projection * vec4(a_position, 1.0);
    if (u_outline > 0.0) {
        // Inverted hull: the back faces pushed out along the normal's
        // screen direction by a constant width in pixels.
        vec4 n = u_view_projection * vec4(a_normal, 0.0);
        vec2 dir = length(n.xy) > 1e-6 ? normalize(n.xy) : vec2(0.0);
        clip.xy += dir * (2.0 * u_outline / u_viewport) * clip.w;
    }
    gl_Position = clip;
    v_normal = a_normal;
    v_uv = a_uv;
}`;

const FRAGMENT_SHADER = `#version 300 es
precision highp float;
in vec3 v_normal;
in vec2 v_uv;
uniform vec4 u_color;
uniform sampler2D u_texture;
uniform bool u_textured;
uniform float u_outline;
uniform vec3 u_light;         // towards the light, unit
out vec4 out_color;
void main() {
    vec4 base = u_color * (u_textured ? texture(u_texture, v_uv) : vec4(1.0));
    if (base.a < 0.5) discard;
    if (u_outline > 0.0) {
        out_color = vec4(base.rgb * 0.25, 1.0);
        return;
    }
    // Toon: lit above the terminator, the shade colour below, blended over
    // a narrow band (sinew's toon ramp, two steps).
    float ndl = dot(normalize(v_normal), u_light);
    float lit = smoothstep(-0.05, 0.05, ndl);
    vec3 shade = base.rgb * vec3(0.62, 0.58, 0.72);
    out_color = vec4(mix(shade, base.rgb, lit), 1.0);
}`;

function compile(gl, type, source) {
    const shader = gl.createShader(type);
    gl.shaderSource(shader, source);
    gl.compileShader(shader);
    if (!gl.getShaderParameter(shader, gl.COMPILE_STATUS)) throw new Error(gl.getShaderInfoLog(shader));
    return shader;
}

function program(gl) {
    const p = gl.createProgram();
    gl.attachShader(p, compile(gl, gl.VERTEX_SHADER, VERTEX_SHADER));
    gl.attachShader(p, compile(gl, gl.FRAGMENT_SHADER, FRAGMENT_SHADER));
    gl.linkProgram(p);
    if (!gl.getProgramParameter(p, gl.LINK_STATUS)) throw new Error(gl.getProgramInfoLog(p));
    return p;
}

// Column-major 4×4 maths for the camera.
function perspective(fovy, aspect, near, far) {
    const f = 1 / Math.tan(fovy / 2), nf = 1 / (near - far);
    return [f / aspect, 0, 0, 0, 0, f, 0, 0, 0, 0, (far + near) * nf, -1, 0, 0, 2 * far * near * nf, 0];
}
function lookAt(eye, target, up) {
    const sub = (a, b) => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
    const norm = (a) => { const l = Math.hypot(a[0], a[1], a[2]); return [a[0] / l, a[1] / l, a[2] / l]; };
    const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
    const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
    const z = norm(sub(eye, target)), x = norm(cross(up, z)), y = cross(z, x);
    return [x[0], y[0], z[0], 0, x[1], y[1], z[1], 0, x[2], y[2], z[2], 0, -dot(x, eye), -dot(y, eye), -dot(z, eye), 1];
}
function multiply(a, b) {
    const o = new Array(16).fill(0);
    for (let c = 0; c < 4; c++) for (let r = 0; r < 4; r++) for (let k = 0; k < 4; k++) o[c * 4 + r] += a[k * 4 + r] * b[c * 4 + k];
    return o;
}

export async function createSinew(canvas, options = {}) {
    const M = await createSinewModule(options.module || {});
    const gl = canvas ? canvas.getContext('webgl2', { antialias: true }) : null;
    if (canvas && !gl) throw new Error('this browser has no WebGL2');
    const prog = gl ? program(gl) : null;
    const uniform = (name) => gl.getUniformLocation(prog, name);
    const u = gl ? {
        vp: uniform('u_view_projection'), outline: uniform('u_outline'), viewport: uniform('u_viewport'),
        color: uniform('u_color'), texture: uniform('u_texture'), textured: uniform('u_textured'), light: uniform('u_light'),
    } : null;
    let draws = [];       // per instance: VAO, buffers, counts, colour, texture
    let clipNames = [];
    let running = false, lastFrame = 0;
    const f32 = (ptr, count) => new Float32Array(M.HEAPF32.buffer, ptr, count);

    function check(rc) {
        if (rc !== 0) throw new Error(M.UTF8ToString(M._sw_web_error()));
    }
    function clipIndex(clip) {
        if (clip === null || clip === undefined || clip === 'none') return -1;
        if (typeof clip === 'number') return clip;
        const i = clipNames.indexOf(clip);
        if (i < 0) throw new Error(`no clip '${clip}' (the model has: ${clipNames.join(', ') || 'none'})`);
        return i;
    }

    function releaseDraws() {
        const textures = new Set();
        for (const d of draws) {
            gl.deleteVertexArray(d.vao);
            for (const b of d.buffers) gl.deleteBuffer(b);
            if (d.texture) textures.add(d.texture); // shared by instances: deleted once
        }
        for (const t of textures) gl.deleteTexture(t);
        draws = [];
    }

    function makeDraws() {
        if (!gl) return;
        releaseDraws();
        const textures = new Map();
        const n = M._sw_web_instance_count();
        for (let i = 0; i < n; i++) {
            const vertices = M._sw_web_instance_vertex_count(i), count = M._sw_web_instance_index_count(i);
            const vao = gl.createVertexArray();
            gl.bindVertexArray(vao);
            const buffer = (target, data, usage, location, size) => {
                const b = gl.createBuffer();
                gl.bindBuffer(target, b);
                gl.bufferData(target, data, usage);
                if (location >= 0) {
                    gl.enableVertexAttribArray(location);
                    gl.vertexAttribPointer(location, size, gl.FLOAT, false, 0, 0);
                }
                return b;
            };
            const position = buffer(gl.ARRAY_BUFFER, vertices * 12, gl.DYNAMIC_DRAW, 0, 3);
            const normal = buffer(gl.ARRAY_BUFFER, vertices * 12, gl.DYNAMIC_DRAW, 1, 3);
            const uvPtr = M._sw_web_instance_texcoords(i);
            const uv = buffer(gl.ARRAY_BUFFER, uvPtr ? f32(uvPtr, vertices * 2).slice() : vertices * 8, gl.STATIC_DRAW, 2, 2);
            const indices = buffer(gl.ELEMENT_ARRAY_BUFFER,
                new Uint32Array(M.HEAPU32.buffer, M._sw_web_instance_indices(i), count).slice(), gl.STATIC_DRAW, -1, 0);
            gl.bindVertexArray(null);
            const image = M._sw_web_instance_image(i);
            let texture = null;
            if (image >= 0 && uvPtr) {
                if (!textures.has(image)) {
                    let t = null;
                    if (M._sw_web_decode_image(image) === 0) {
                        const w = M._sw_web_image_width(), h = M._sw_web_image_height();
                        t = gl.createTexture();
                        gl.bindTexture(gl.TEXTURE_2D, t);
                        gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA8, w, h, 0, gl.RGBA, gl.UNSIGNED_BYTE,
                            new Uint8Array(M.HEAPU8.buffer, M._sw_web_image_pixels(), w * h * 4));
                        gl.generateMipmap(gl.TEXTURE_2D);
                        gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.LINEAR_MIPMAP_LINEAR);
                    }
                    textures.set(image, t);
                }
                texture = textures.get(image);
            }
            draws.push({ vao, buffers: [position, normal, uv, indices], position, normal, vertices, count,
                color: Array.from(f32(M._sw_web_instance_color(i), 4)), texture });
        }
    }

    function upload() {
        for (let i = 0; i < draws.length; i++) {
            const d = draws[i];
            gl.bindBuffer(gl.ARRAY_BUFFER, d.position);
            gl.bufferSubData(gl.ARRAY_BUFFER, 0, f32(M._sw_web_instance_positions(i), d.vertices * 3));
            gl.bindBuffer(gl.ARRAY_BUFFER, d.normal);
            gl.bufferSubData(gl.ARRAY_BUFFER, 0, f32(M._sw_web_instance_normals(i), d.vertices * 3));
        }
    }

    const api = {
        module: M,
        /** Loads a model: a URL string, an ArrayBuffer/typed array, or a File/Blob. */
        async load(source, name) {
            let bytes;
            if (typeof source === 'string') {
                const response = await fetch(source);
                if (!response.ok) throw new Error(`${source}: HTTP ${response.status}`);
                bytes = new Uint8Array(await response.arrayBuffer());
                name = name || source.split('/').pop();
            } else if (typeof Blob !== 'undefined' && source instanceof Blob) {
                bytes = new Uint8Array(await source.arrayBuffer());
                name = name || source.name || 'model.glb';
            } else {
                bytes = source instanceof Uint8Array ? source : new Uint8Array(source.buffer || source);
            }
            name = name || 'model.glb';
            const data = M._malloc(bytes.length);
            M.HEAPU8.set(bytes, data);
            const nameSize = M.lengthBytesUTF8(name) + 1, namePtr = M._malloc(nameSize);
            M.stringToUTF8(name, namePtr, nameSize);
            const rc = M._sw_web_load(data, bytes.length, namePtr); // the module keeps `data`
            M._free(namePtr);
            check(rc);
            clipNames = [];
            for (let i = 0; i < M._sw_web_clip_count(); i++) clipNames.push(M.UTF8ToString(M._sw_web_clip_name(i)));
            makeDraws();
            check(M._sw_web_update(0));
            return { clips: clipNames.slice(), bounds: Array.from(f32(M._sw_web_bounds(), 6)) };
        },
        /** The model's clip names, in file order. */
        clips() { return clipNames.slice(); },
        /** Plays a clip (name or index; null: the rest pose), crossfading from the one playing over fade seconds. */
        play(clip, fade = 0.25) { check(M._sw_web_play(clipIndex(clip), fade)); },
        /** Puts the playing clip at time t seconds (ends a fade, restarts the springs there) and poses the frame. */
        setTime(t) { M._sw_web_set_time(t); check(M._sw_web_update(0)); },
        /** Advances the runtime by dt seconds (playback, crossfade, springs, skinning). */
        update(dt) { check(M._sw_web_update(dt)); },
        /** The pose of a clip at a clip time (held at the ends; no springs):
            { nodes: Float32Array(node count × 12), world matrices as 3×4 rows, glTF node order;
              positions: Float32Array, every mesh instance's skinned vertices (x, y, z), instances
              in glTF node order, then primitive order, as `sinew export` lists them }. */
        pose(clip, time) {
            check(M._sw_web_pose(clipIndex(clip), time));
            return { nodes: f32(M._sw_web_pose_nodes(), 12 * M._sw_web_node_count()).slice(),
                     positions: f32(M._sw_web_pose_positions(), M._sw_web_pose_position_count()).slice() };
        },
        /** The current frame's skinned vertices (what draw() shows), in pose()'s order: { positions }. */
        frame() {
            M._sw_web_frame();
            return { positions: f32(M._sw_web_pose_positions(), M._sw_web_pose_position_count()).slice() };
        },
        /** Spring bones on or off (on by default; turned on, they start from the next frame's pose). */
        springs(on) { M._sw_web_springs(on ? 1 : 0); },
        /** Milliseconds per runtime frame (pose, springs, CPU skinning), over `frames` frames. */
        bench(frames = 100) { return M._sw_web_bench(frames); },
        /** Draws the current frame. */
        draw() {
            if (!gl) return;
            const w = canvas.width, h = canvas.height;
            gl.viewport(0, 0, w, h);
            gl.clearColor(0.86, 0.89, 0.93, 1);
            gl.clear(gl.COLOR_BUFFER_BIT | gl.DEPTH_BUFFER_BIT);
            if (!draws.length) return;
            upload();
            // The camera frames the rest pose's size around the frame's
            // centre on the ground plane: it follows a walk's root motion.
            const b = f32(M._sw_web_bounds(), 6), fb = f32(M._sw_web_frame_bounds(), 6);
            const center = [(fb[0] + fb[3]) / 2, (b[1] + b[4]) / 2, (fb[2] + fb[5]) / 2];
            const size = Math.max(b[3] - b[0], b[4] - b[1], b[5] - b[2], 1e-3);
            const fov = 35 * Math.PI / 180, distance = 0.72 * size / Math.tan(fov / 2);
            const eye = [center[0] + distance * 0.35, center[1] + size * 0.08, center[2] + distance * 0.94];
            const vp = multiply(perspective(fov, w / h, distance * 0.05, distance * 4), lookAt(eye, center, [0, 1, 0]));
            gl.useProgram(prog);
            gl.uniformMatrix4fv(u.vp, false, vp);
            gl.uniform2f(u.viewport, w, h);
            const l = [0.4, 0.8, 0.45], ll = Math.hypot(...l);
            gl.uniform3f(u.light, l[0] / ll, l[1] / ll, l[2] / ll);
            gl.uniform1i(u.texture, 0);
            gl.enable(gl.DEPTH_TEST);
            gl.enable(gl.CULL_FACE);
            for (const pass of [0, 1]) {
                // pass 0: the surface (back faces culled); pass 1: the hull (front faces culled)
                gl.cullFace(pass ? gl.FRONT : gl.BACK);
                gl.uniform1f(u.outline, pass ? Math.max(1, h / 400) : 0);
                for (const d of draws) {
                    gl.uniform4fv(u.color, d.color);
                    gl.uniform1i(u.textured, d.texture ? 1 : 0);
                    gl.activeTexture(gl.TEXTURE0);
                    gl.bindTexture(gl.TEXTURE_2D, d.texture);
                    gl.bindVertexArray(d.vao);
                    gl.drawElements(gl.TRIANGLES, d.count, gl.UNSIGNED_INT, 0);
                }
            }
            gl.bindVertexArray(null);
        },
        /** Plays and draws every animation frame until stop(). */
        start() {
            if (running) return;
            running = true;
            lastFrame = performance.now();
            const frame = (now) => {
                if (!running) return;
                api.update(Math.min((now - lastFrame) / 1000, 0.1));
                lastFrame = now;
                api.draw();
                requestAnimationFrame(frame);
            };
            requestAnimationFrame(frame);
        },
        stop() { running = false; },
    };
    return api;
}
