// Expected values for tests/vrm/test_vrma.c from three-vrm-animation
// (@pixiv/three-vrm 3.x with @pixiv/three-vrm-animation, three.js):
// wave.vrma applied to vrma_model1.vrm (VRM 1.0) and vrma_model0.vrm
// (VRM 0.x, turned with VRMUtils.rotateVRM0 to face +Z, as sinew turns
// 0.x models at load). Prints, per model and time, the world position of
// every node of the model's skeleton, the expression weights and the
// look-at yaw / pitch, as JSON.
//
//   mkdir ref && cp tests/reference/vrma_reference.mjs ref/ &&
//   ln -s /path/to/node_modules ref/node_modules &&
//   node ref/vrma_reference.mjs tests/data/vrm > out.json
//
// (ES modules resolve packages from the script's folder up, not through
// NODE_PATH: the node_modules next to the script must hold three,
// @pixiv/three-vrm and @pixiv/three-vrm-animation). Skips with exit status
// 77 when they cannot be imported.
import fs from 'node:fs';
import path from 'node:path';

let THREE, GLTFLoader, VRM, VRMA;
try {
  THREE = await import('three');
  ({ GLTFLoader } = await import('three/examples/jsm/loaders/GLTFLoader.js'));
  VRM = await import('@pixiv/three-vrm');
  VRMA = await import('@pixiv/three-vrm-animation');
} catch (e) {
  console.error('vrma_reference: three / three-vrm not found, skipped: ' + e.message);
  process.exit(77);
}

const dir = process.argv[2] || 'tests/data/vrm';
const times = [0, 0.25, 0.5, 0.8, 1.0, 1.3, 1.45];

function parse(file, plugin) {
  const loader = new GLTFLoader();
  loader.register(plugin);
  const data = fs.readFileSync(path.join(dir, file));
  const ab = data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength);
  return new Promise((resolve, reject) => loader.parse(ab, '', resolve, reject));
}

const quiet = console.warn;
console.warn = () => {};
const anim = (await parse('wave.vrma', (p) => new VRMA.VRMAnimationLoaderPlugin(p))).userData.vrmAnimations[0];
const out = {};
for (const file of ['vrma_model1.vrm', 'vrma_model0.vrm']) {
  const vrm = (await parse(file, (p) => new VRM.VRMLoaderPlugin(p))).userData.vrm;
  VRM.VRMUtils.rotateVRM0(vrm);
  const clip = VRMA.createVRMAnimationClip(anim, vrm);
  const mixer = new THREE.AnimationMixer(vrm.scene);
  mixer.clipAction(clip).play();
  const frames = [];
  for (const t of times) {
    mixer.setTime(t);
    vrm.humanoid.update();
    vrm.scene.updateMatrixWorld(true);
    const joints = {};
    vrm.scene.traverse((o) => {
      if (o.isBone || (o.name && !o.name.startsWith('Normalized_') && o.name !== 'VRMHumanoidRig' &&
          !o.name.startsWith('VRMExpression') && o.type !== 'VRMLookAtQuaternionProxy' && o !== vrm.scene)) {
        const p = new THREE.Vector3();
        o.getWorldPosition(p);
        joints[o.name] = p.toArray();
      }
    });
    frames.push({
      time: t,
      joints,
      happy: vrm.expressionManager.getValue('happy'),
      smirk: vrm.expressionManager.getValue('smirk'),
      yaw: vrm.lookAt.yaw,
      pitch: vrm.lookAt.pitch,
    });
  }
  out[file] = { metaVersion: vrm.meta.metaVersion, duration: clip.duration, frames };
}
console.warn = quiet;
console.log(JSON.stringify(out, null, 1));
