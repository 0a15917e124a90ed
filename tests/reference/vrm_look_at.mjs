// The VRM look-at of three-vrm 3.5.5 on sinew's test avatars
// (tests/data/vrm/look_vrm*.{gltf,vrm}, made by make_avatar_files.py): for
// each file, head pose and gaze point, the yaw and pitch, then the eyes'
// local rotations (bone type) or the lookUp/Down/Left/Right weights
// (expression type). tests/vrm/test_vrm_look_at.c holds its output as
// expected values.
//
//   NODE_PATH=/path/to/node_modules node tests/reference/vrm_look_at.mjs
//
// (node_modules with three and @pixiv/three-vrm; prints "skipped: ..." and
// exits 0 without them.) Gaze points and poses are sinew's: VRM 0.x models
// are turned to face +Z at load by sinew, not by three-vrm, so a sinew
// world point (x, y, z) is three-vrm's (-x, y, -z) for a 0.x file, and
// a head rotation q is (-q.x, q.y, -q.z, q.w) there.
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const data = path.join(here, '..', 'data', 'vrm');
let THREE, GLTFLoader, VRMLoaderPlugin;
try {
  const roots = (process.env.NODE_PATH || '').split(path.delimiter).filter(Boolean);
  const find = (rel) => {
    for (const r of roots) if (fs.existsSync(path.join(r, rel))) return pathToFileURL(path.join(r, rel)).href;
    return createRequire(import.meta.url).resolve(rel);
  };
  THREE = await import(find('three/build/three.module.js'));
  ({ GLTFLoader } = await import(find('three/examples/jsm/loaders/GLTFLoader.js')));
  ({ VRMLoaderPlugin } = await import(find('@pixiv/three-vrm/lib/three-vrm.module.js')));
} catch (e) {
  console.log(`skipped: three or @pixiv/three-vrm not found (${e.message.split('\n')[0]})`);
  process.exit(0);
}
console.warn = () => {};

const files = ['look_vrm1_bone.gltf', 'look_vrm1_expression.gltf', 'look_vrm0_bone.vrm', 'look_vrm0_expression.vrm'];
// head local rotations: the rest one (15 deg about Y), and the rest turned by 30 deg about X then -25 deg about Y
const rest = new THREE.Quaternion().setFromAxisAngle(new THREE.Vector3(0, 1, 0), 15 * Math.PI / 180);
const turned = rest.clone()
  .multiply(new THREE.Quaternion().setFromAxisAngle(new THREE.Vector3(0, 1, 0), -25 * Math.PI / 180))
  .multiply(new THREE.Quaternion().setFromAxisAngle(new THREE.Vector3(1, 0, 0), 30 * Math.PI / 180));
const heads = [rest, turned];
const targets = [[0, 1.5, 2], [0.6, 1.6, 1.0], [-0.4, 1.2, 1.5], [3, 1.45, 0.2], [-2, 3.5, 0.5], [0.2, 0.0, 0.5],
                 [0.1, 1.5, -2]];

const load = (file) => new Promise((resolve, reject) => {
  const bytes = fs.readFileSync(path.join(data, file));
  const loader = new GLTFLoader();
  loader.register((parser) => new VRMLoaderPlugin(parser));
  loader.parse(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength), '', resolve, reject);
});

const f = (x) => x.toFixed(7);
for (const [fi, file] of files.entries()) {
  const gltf = await load(file);
  const vrm = gltf.userData.vrm;
  const vrm0 = file.includes('vrm0');
  const head = vrm.humanoid.getRawBoneNode('head');
  for (const [hi, q] of heads.entries()) {
    for (const [ti, t] of targets.entries()) {
      // a 0.x file's head turned with the avatar: Y q Y^-1
      head.quaternion.copy(vrm0 ? new THREE.Quaternion(-q.x, q.y, -q.z, q.w) : q);
      vrm.scene.updateMatrixWorld(true);
      const p = vrm0 ? new THREE.Vector3(-t[0], t[1], -t[2]) : new THREE.Vector3(...t);
      vrm.lookAt.lookAt(p);
      const yaw = vrm.lookAt.yaw, pitch = vrm.lookAt.pitch;
      vrm.lookAt.applier.applyYawPitch(yaw, pitch);
      let out;
      if (file.includes('bone')) {
        const l = vrm.humanoid.getRawBoneNode('leftEye').quaternion, r = vrm.humanoid.getRawBoneNode('rightEye').quaternion;
        out = [l.x, l.y, l.z, l.w, r.x, r.y, r.z, r.w];
      } else {
        const e = vrm.expressionManager;
        out = ['lookUp', 'lookDown', 'lookLeft', 'lookRight'].map((n) => e.getValue(n));
      }
      console.log(`    {${fi}, ${hi}, ${ti}, ${f(yaw)}f, ${f(pitch)}f, {${out.map((x) => f(x) + 'f').join(', ')}}},`);
    }
  }
}
