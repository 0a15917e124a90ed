/* VRM animation files (sinew/vrma.h) against three-vrm-animation:
   tests/data/vrm/wave.vrma (make_vrma_files.py: a humanoid whose rest pose
   has odd rotations on every bone, longer bones and an FBX-like scaled and
   turned armature) retargeted onto a VRM 1.0 avatar with other odd rest
   rotations and a VRM 0.x avatar (turned to face +Z at load), and the
   expression and look-at tracks; broken extension blocks as one-line
   errors naming the file and the JSON path.

   The expected numbers are three-vrm-animation's (three.js r180,
   @pixiv/three-vrm 3.5.5, @pixiv/three-vrm-animation 3.5.5), printed by
   tests/reference/vrma_reference.mjs on the files of make_vrma_files.py:
   createVRMAnimationClip on each avatar, VRMUtils.rotateVRM0 on the 0.x
   one, AnimationMixer.setTime(t), humanoid.update(), every skeleton node's
   world position, expressionManager.getValue, lookAt.yaw / pitch. To
   regenerate: run the generator, then the script, and paste its numbers. */
#define _POSIX_C_SOURCE 200809L /* mkdtemp */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "sinew/gltf.h"
#include "sinew/pose.h"
#include "sinew/retarget.h"
#include "sinew/vrm.h"
#include "sinew/vrma.h"

typedef struct expected_joint {
    const char* name;
    double p[3];
} expected_joint;

typedef struct expected_frame {
    double time, happy, smirk, yaw, pitch;
    expected_joint joints[32];
} expected_frame;

/* three-vrm-animation's output (see the top of the file). */
static const expected_frame EXPECTED_VRM1[] = {
    {0, 0, 0.5, 0, 0, {
        {"Chest", {2.337565e-07, 1.131, -8.073133e-07}},
        {"Head", {-4.578439e-07, 1.331, 0.009999076}},
        {"HeadTip", {-8.501776e-07, 1.530999, 0.01999926}},
        {"Hips", {0, 0.9, -5.570079e-07}},
        {"LeftFoot", {0.09000135, 0.07999981, -5.109253e-07}},
        {"LeftHand", {0.5780001, 1.191001, -1.301445e-06}},
        {"LeftHandTip", {0.6879999, 1.191002, -1.519022e-06}},
        {"LeftLowerArm", {0.3800002, 1.191001, -0.01000106}},
        {"LeftLowerLeg", {0.09000086, 0.4225002, 0.009999532}},
        {"LeftShoulder", {0.05000045, 1.191, -4.850053e-07}},
        {"LeftToes", {0.09000125, 0.02000008, 0.1199991}},
        {"LeftToesTip", {0.09000125, 0.02000016, 0.1799987}},
        {"LeftUpperArm", {0.16, 1.191, -6.367798e-07}},
        {"LeftUpperLeg", {0.09000002, 0.8500001, -5.228123e-07}},
        {"Neck", {3.190178e-07, 1.250999, -6.501677e-07}},
        {"NeckTwist", {3.290272e-07, 1.171, -3.542979e-07}},
        {"RightFoot", {-0.08999786, 0.08000061, -2.029069e-06}},
        {"RightHand", {-0.5779995, 1.190998, -8.846687e-07}},
        {"RightHandTip", {-0.6879999, 1.190997, -9.563975e-07}},
        {"RightLowerArm", {-0.3799997, 1.190998, -0.01000111}},
        {"RightLowerLeg", {-0.08999899, 0.4225, 0.009998774}},
        {"RightShoulder", {-0.0500001, 1.190999, -6.822763e-07}},
        {"RightToes", {-0.08999753, 0.02000103, 0.1199977}},
        {"RightToesTip", {-0.08999717, 0.02000067, 0.1799981}},
        {"RightUpperArm", {-0.1599996, 1.190999, -7.079688e-07}},
        {"RightUpperLeg", {-0.09000007, 0.8499999, -7.162102e-07}},
        {"Root", {0, 0, 0}},
        {"Spine", {3.382316e-07, 1.01, 0.009999341}},
        {NULL, {0, 0, 0}}}},
    {0.25, 0.5, 0.25, 9.961704, 4.999854, {
        {"Chest", {0.02525761, 1.10877, 0.06063714}},
        {"Head", {0.03031759, 1.307231, 0.08933749}},
        {"HeadTip", {0.04048556, 1.502795, 0.1311847}},
        {"Hips", {0.02249999, 0.8775, 0.04499946}},
        {"LeftFoot", {0.1251111, 0.07682964, 0.1086397}},
        {"LeftHand", {0.522528, 1.379885, -0.06918595}},
        {"LeftHandTip", {0.6031061, 1.435759, -0.1190383}},
        {"LeftLowerArm", {0.372589, 1.278622, 0.01185734}},
        {"LeftLowerLeg", {0.1320241, 0.4171551, 0.1478478}},
        {"LeftShoulder", {0.0758582, 1.168257, 0.05966757}},
        {"LeftToes", {0.1449613, 0.006599539, 0.2212167}},
        {"LeftToesTip", {0.1553405, 0.001370308, 0.28008}},
        {"LeftUpperArm", {0.1841866, 1.168257, 0.04056625}},
        {"LeftUpperLeg", {0.1111327, 0.8275001, 0.02937117}},
        {"Neck", {0.0279776, 1.227743, 0.07606238}},
        {"NeckTwist", {0.0261644, 1.148428, 0.06577925}},
        {"RightFoot", {-0.09507085, 0.07575288, -0.1035004}},
        {"RightHand", {-0.4982967, 1.347475, 0.08209762}},
        {"RightHandTip", {-0.5918795, 1.394569, 0.04856372}},
        {"RightLowerArm", {-0.3269248, 1.261741, 0.1329438}},
        {"RightLowerLeg", {-0.08050386, 0.4079692, -0.02088059}},
        {"RightShoulder", {-0.02262316, 1.168256, 0.07703223}},
        {"RightToes", {-0.0769818, -0.00879717, -0.0009140368}},
        {"RightToesTip", {-0.0668095, -0.02178397, 0.05677398}},
        {"RightUpperArm", {-0.1309515, 1.168256, 0.09613336}},
        {"RightUpperLeg", {-0.06613282, 0.8274999, 0.06062764}},
        {"Root", {0, 0, 0}},
        {"Spine", {0.0242368, 0.9874999, 0.05484736}},
        {NULL, {0, 0, 0}}}},
    {0.5, 1, 0, 20, 10, {
        {"Chest", {0.05582779, 1.084465, 0.1197478}},
        {"Head", {0.07224158, 1.2792, 0.1648461}},
        {"HeadTip", {0.1055729, 1.464987, 0.2317201}},
        {"Hips", {0.04499997, 0.8550001, 0.08999947}},
        {"LeftFoot", {0.1819324, 0.1042139, 0.2030727}},
        {"LeftHand", {0.3648782, 1.486483, -0.03558009}},
        {"LeftHandTip", {0.3816893, 1.57168, -0.103099}},
        {"LeftLowerArm", {0.3284172, 1.329043, 0.07925594}},
        {"LeftLowerLeg", {0.2056417, 0.4397744, 0.2682149}},
        {"LeftShoulder", {0.108124, 1.142421, 0.1172396}},
        {"LeftToes", {0.2187875, 0.02428791, 0.3043319}},
        {"LeftToesTip", {0.2389968, 0.01386916, 0.3598565}},
        {"LeftUpperArm", {0.2114898, 1.142421, 0.07961745}},
        {"LeftUpperLeg", {0.1295723, 0.8050002, 0.05921772}},
        {"Neck", {0.06645046, 1.200376, 0.148933}},
        {"NeckTwist", {0.05936887, 1.123102, 0.1294765}},
        {"RightFoot", {-0.1508696, 0.107144, -0.1850115}},
        {"RightHand", {-0.3232086, 1.430544, 0.1619644}},
        {"RightHandTip", {-0.3841725, 1.495896, 0.09783515}},
        {"RightLowerArm", {-0.2104825, 1.307795, 0.2693405}},
        {"RightLowerLeg", {-0.09826445, 0.4133275, -0.04047671}},
        {"RightShoulder", {0.01415412, 1.14242, 0.1514415}},
        {"RightToes", {-0.122345, 0.002051805, -0.1066414}},
        {"RightToesTip", {-0.1037461, -0.02330575, -0.05554237}},
        {"RightUpperArm", {-0.08921165, 1.14242, 0.1890634}},
        {"RightUpperLeg", {-0.03957251, 0.805, 0.1207811}},
        {"Root", {0, 0, 0}},
        {"Spine", {0.04842048, 0.965, 0.09939616}},
        {NULL, {0, 0, 0}}}},
    {0.8, 0.55, 0.45, 1.975203, 0.9831497, {
        {"Chest", {-0.0129573, 1.123317, 0.1655042}},
        {"Head", {-0.02654365, 1.319483, 0.2049201}},
        {"HeadTip", {-0.04033556, 1.512658, 0.2558441}},
        {"Hips", {-0.003599997, 0.8928001, 0.1439995}},
        {"LeftFoot", {0.08861418, 0.1014855, 0.01801479}},
        {"LeftHand", {0.2847305, 1.417903, -0.04830103}},
        {"LeftHandTip", {0.2807037, 1.448063, -0.154009}},
        {"LeftLowerArm", {0.284906, 1.356751, 0.1402844}},
        {"LeftLowerLeg", {0.08621264, 0.4153003, 0.1555687}},
        {"LeftShoulder", {0.03228664, 1.185879, 0.1772903}},
        {"LeftToes", {0.08706456, 0.0009020715, 0.1067867}},
        {"LeftToesTip", {0.08609368, -0.02157409, 0.1624089}},
        {"LeftUpperArm", {0.1419554, 1.193984, 0.1799316}},
        {"LeftUpperLeg", {0.08638632, 0.8428002, 0.1455702}},
        {"Neck", {-0.02216908, 1.241074, 0.1866746}},
        {"NeckTwist", {-0.01602782, 1.162569, 0.1725614}},
        {"RightFoot", {-0.09405313, 0.07326972, 0.1692957}},
        {"RightHand", {-0.5205885, 1.350005, 0.059175}},
        {"RightHandTip", {-0.6011132, 1.389957, -0.004226444}},
        {"RightLowerArm", {-0.3707699, 1.274975, 0.165141}},
        {"RightLowerLeg", {-0.09402007, 0.4159095, 0.1673377}},
        {"RightShoulder", {-0.0674132, 1.178511, 0.1748888}},
        {"RightToes", {-0.09618235, 0.01749461, 0.2912978}},
        {"RightToesTip", {-0.0972285, 0.01958822, 0.3512524}},
        {"RightUpperArm", {-0.1770819, 1.170407, 0.1722473}},
        {"RightUpperLeg", {-0.09358636, 0.8428, 0.1424286}},
        {"Root", {0, 0, 0}},
        {"Spine", {-0.003774178, 1.0028, 0.1539978}},
        {NULL, {0, 0, 0}}}},
    {1, 0.25, 0.75, -10, -5, {
        {"Chest", {-0.05428922, 1.14839, 0.1905588}},
        {"Head", {-0.08258518, 1.344757, 0.2177458}},
        {"HeadTip", {-0.1159818, 1.540388, 0.2444494}},
        {"Hips", {-0.03599998, 0.918, 0.1799994}},
        {"LeftFoot", {0.1329098, 0.1712474, -0.1026416}},
        {"LeftHand", {0.2277048, 1.351528, -0.01026636}},
        {"LeftHandTip", {0.2060469, 1.344644, -0.1178932}},
        {"LeftLowerArm", {0.2589099, 1.357945, 0.1854097}},
        {"LeftLowerLeg", {0.08634502, 0.4628614, 0.07113855}},
        {"LeftShoulder", {-0.01548097, 1.213617, 0.2089781}},
        {"LeftToes", {0.1137771, 0.05928632, -0.03123766}},
        {"LeftToesTip", {0.1003286, 0.0292866, 0.018953}},
        {"LeftUpperArm", {0.08974709, 1.227124, 0.2380387}},
        {"LeftUpperLeg", {0.05093337, 0.8680002, 0.2032932}},
        {"Neck", {-0.07233517, 1.266566, 0.2009778}},
        {"NeckTwist", {-0.06030455, 1.187782, 0.1940322}},
        {"RightFoot", {-0.191092, 0.144437, 0.4110865}},
        {"RightHand", {-0.5816161, 1.270337, -0.02575218}},
        {"RightHandTip", {-0.6692954, 1.286236, -0.09024754}},
        {"RightLowerArm", {-0.4185318, 1.238618, 0.08242054}},
        {"RightLowerLeg", {-0.163207, 0.4697016, 0.3070135}},
        {"RightShoulder", {-0.1111436, 1.201338, 0.1825587}},
        {"RightToes", {-0.2255881, 0.1290982, 0.539829}},
        {"RightToesTip", {-0.2401805, 0.1496191, 0.5942899}},
        {"RightUpperArm", {-0.2163716, 1.187831, 0.1534979}},
        {"RightUpperLeg", {-0.1229333, 0.8679999, 0.1567056}},
        {"Root", {0, 0, 0}},
        {"Spine", {-0.03858783, 1.028, 0.1896587}},
        {NULL, {0, 0, 0}}}},
    {1.3, 0.1, 0.9, 13.81129, 7.037027, {
        {"Chest", {-0.02068509, 1.084399, 0.2396586}},
        {"Head", {-0.02963909, 1.28269, 0.2630677}},
        {"HeadTip", {-0.06140995, 1.47812, 0.2930235}},
        {"Hips", {-0.01439999, 0.8532001, 0.2339995}},
        {"LeftFoot", {0.03899601, 0.1374074, -0.02572618}},
        {"LeftHand", {0.4301342, 1.017173, 0.03560095}},
        {"LeftHandTip", {0.484752, 1.001006, -0.05850281}},
        {"LeftLowerArm", {0.3252917, 1.052134, 0.2001909}},
        {"LeftLowerLeg", {0.04466338, 0.37715, 0.2190144}},
        {"LeftShoulder", {0.02607224, 1.146718, 0.2451339}},
        {"LeftToes", {0.0273638, 0.01141786, 0.01889678}},
        {"LeftToesTip", {0.02212077, -0.02997319, 0.06201568}},
        {"LeftUpperArm", {0.1357802, 1.152145, 0.2510175}},
        {"LeftUpperLeg", {0.07547669, 0.8032002, 0.2387097}},
        {"Neck", {-0.02690569, 1.204106, 0.2452599}},
        {"NeckTwist", {-0.02275857, 1.124301, 0.2415261}},
        {"RightFoot", {-0.1014145, 0.04072997, 0.3366668}},
        {"RightHand", {-0.4381577, 0.917567, 0.0591051}},
        {"RightHandTip", {-0.4780296, 0.8716707, -0.03256753}},
        {"RightLowerArm", {-0.3591385, 1.004537, 0.2187804}},
        {"RightLowerLeg", {-0.1016361, 0.3812711, 0.2987517}},
        {"RightShoulder", {-0.07366323, 1.141786, 0.2397849}},
        {"RightToes", {-0.08857189, -0.001994769, 0.4631957}},
        {"RightToesTip", {-0.08226177, 0.006349002, 0.522277}},
        {"RightUpperArm", {-0.1833712, 1.13636, 0.2339011}},
        {"RightUpperLeg", {-0.1042767, 0.8032, 0.2292891}},
        {"Root", {0, 0, 0}},
        {"Spine", {-0.01492301, 0.9632, 0.2439857}},
        {NULL, {0, 0, 0}}}},
    {1.45, 0.025, 0.975, 25.88387, 13.05876, {
        {"Chest", {-0.005013509, 1.051905, 0.2625694}},
        {"Head", {-0.005913942, 1.250648, 0.2813406}},
        {"HeadTip", {-0.03789282, 1.446014, 0.3114999}},
        {"Hips", {-0.003599998, 0.8208002, 0.2609995}},
        {"LeftFoot", {0.00495184, 0.1396567, 0.03147418}},
        {"LeftHand", {0.3557051, 0.7800067, 0.1274019}},
        {"LeftHandTip", {0.4068571, 0.7028854, 0.06793941}},
        {"LeftLowerArm", {0.2632243, 0.9247554, 0.2263926}},
        {"LeftLowerLeg", {0.04119947, 0.3479364, 0.3011263}},
        {"LeftShoulder", {0.04421393, 1.112513, 0.2607351}},
        {"LeftToes", {-0.008107241, 0.00964151, 0.06189465}},
        {"LeftToesTip", {-0.01141344, -0.03644958, 0.1001651}},
        {"LeftUpperArm", {0.1540548, 1.113871, 0.2549868}},
        {"LeftUpperLeg", {0.08627668, 0.7708003, 0.2562893}},
        {"Neck", {-0.006414751, 1.171886, 0.2641259}},
        {"NeckTwist", {-0.005480501, 1.091899, 0.2630886}},
        {"RightFoot", {-0.08890788, 0.001272433, 0.2922658}},
        {"RightHand", {-0.3062272, 0.8553287, 0.08416413}},
        {"RightHandTip", {-0.3238855, 0.8262455, -0.02044205}},
        {"RightLowerArm", {-0.2699757, 0.9160756, 0.2693657}},
        {"RightLowerLeg", {-0.08809855, 0.3439096, 0.2900352}},
        {"RightShoulder", {-0.05564238, 1.111278, 0.2659605}},
        {"RightToes", {-0.05445189, -0.05451989, 0.4093124}},
        {"RightToesTip", {-0.03740153, -0.05243499, 0.4668013}},
        {"RightUpperArm", {-0.1654832, 1.109921, 0.2717086}},
        {"RightUpperLeg", {-0.09347674, 0.7708001, 0.2657096}},
        {"Root", {0, 0, 0}},
        {"Spine", {-0.003076296, 0.9308001, 0.2709857}},
        {NULL, {0, 0, 0}}}},
};
static const expected_frame EXPECTED_VRM0[] = {
    {0, 0, 0.5, 0, 0, {
        {"Chest", {-1.161163e-07, 1.102, -1.848046e-07}},
        {"Head", {-2.656746e-07, 1.302, 0.01000012}},
        {"HeadTip", {-3.426079e-07, 1.502, 0.02000049}},
        {"Hips", {6.442414e-23, 0.85, -5.26063e-07}},
        {"LeftFoot", {0.09000099, 0.08000001, -1.24434e-06}},
        {"LeftFootTip", {0.09000092, 0.01999997, 0.1399987}},
        {"LeftHand", {0.6159999, 1.162001, -4.696446e-07}},
        {"LeftHandTip", {0.7359999, 1.162001, -5.736053e-07}},
        {"LeftLowerArm", {0.3999999, 1.162, -0.01000028}},
        {"LeftLowerLeg", {0.09000047, 0.395, 0.009998832}},
        {"LeftShoulder", {0.04999986, 1.162, -7.554872e-08}},
        {"LeftUpperArm", {0.1599999, 1.162, -3.081322e-08}},
        {"LeftUpperLeg", {0.09000003, 0.8, -5.856607e-07}},
        {"Neck", {-1.591426e-07, 1.222, -6.961441e-09}},
        {"RightFoot", {-0.08999907, 0.07999991, -1.188144e-06}},
        {"RightFootTip", {-0.08999886, 0.01999979, 0.1399988}},
        {"RightHand", {-0.6160001, 1.162, -2.529061e-07}},
        {"RightHandTip", {-0.7360001, 1.161999, -2.667948e-07}},
        {"RightLowerArm", {-0.4000001, 1.162, -0.01000023}},
        {"RightLowerLeg", {-0.08999945, 0.3949999, 0.009999074}},
        {"RightShoulder", {-0.05000014, 1.162, -1.162174e-07}},
        {"RightUpperArm", {-0.1600001, 1.162, -1.609529e-07}},
        {"RightUpperLeg", {-0.08999997, 0.7999999, -5.878243e-07}},
        {"Root", {0, 0, 0}},
        {"Spine", {-7.285435e-08, 0.97, 0.00999962}},
        {NULL, {0, 0, 0}}}},
    {0.25, 0.5, 0.25, 9.961704, 4.999854, {
        {"Chest", {0.02425669, 1.080926, 0.05955181}},
        {"Head", {0.02931729, 1.279387, 0.08825257}},
        {"HeadTip", {0.03948562, 1.474951, 0.1301}},
        {"Hips", {0.02124999, 0.82875, 0.04249949}},
        {"LeftFoot", {0.1232656, 0.07720835, 0.1027644}},
        {"LeftFootTip", {0.1465757, 0.005234828, 0.234963}},
        {"LeftHand", {0.5519973, 1.371097, -0.08015127}},
        {"LeftHandTip", {0.6399013, 1.43205, -0.1345357}},
        {"LeftLowerArm", {0.3888724, 1.260692, 0.009049743}},
        {"LeftLowerLeg", {0.1297624, 0.3901381, 0.1396122}},
        {"LeftShoulder", {0.07485702, 1.140413, 0.05858211}},
        {"LeftUpperArm", {0.1831859, 1.140413, 0.03948086}},
        {"LeftUpperLeg", {0.1098827, 0.7787501, 0.02687109}},
        {"Neck", {0.02697657, 1.199899, 0.07497718}},
        {"RightFoot", {-0.09444273, 0.07581699, -0.09534202}},
        {"RightFootTip", {-0.07296313, -0.01306243, 0.02647372}},
        {"RightHand", {-0.53227, 1.335719, 0.0797593}},
        {"RightHandTip", {-0.6343597, 1.387094, 0.04317713}},
        {"RightLowerArm", {-0.3455847, 1.242279, 0.136093}},
        {"RightLowerLeg", {-0.08090864, 0.3811858, -0.01858436}},
        {"RightShoulder", {-0.02362376, 1.140413, 0.07594688}},
        {"RightUpperArm", {-0.1319526, 1.140413, 0.09504813}},
        {"RightUpperLeg", {-0.0673827, 0.77875, 0.05812775}},
        {"Root", {0, 0, 0}},
        {"Spine", {0.02298644, 0.94875, 0.05234773}},
        {NULL, {0, 0, 0}}}},
    {0.5, 1, 0, 20, 10, {
        {"Chest", {0.05430141, 1.05759, 0.1174238}},
        {"Head", {0.07071591, 1.252325, 0.1625225}},
        {"HeadTip", {0.1040476, 1.438113, 0.2293966}},
        {"Hips", {0.04249997, 0.8075001, 0.0849995}},
        {"LeftFoot", {0.1772175, 0.1032815, 0.1919879}},
        {"LeftFootTip", {0.2208093, 0.01988228, 0.3117556}},
        {"LeftHand", {0.377034, 1.490279, -0.04816071}},
        {"LeftHandTip", {0.3953741, 1.583221, -0.121818}},
        {"LeftLowerArm", {0.3378215, 1.318898, 0.07772408}},
        {"LeftLowerLeg", {0.1992935, 0.4117595, 0.2526427}},
        {"LeftShoulder", {0.1065974, 1.115546, 0.1149156}},
        {"LeftUpperArm", {0.2099636, 1.115546, 0.0772934}},
        {"LeftUpperLeg", {0.1270723, 0.7575001, 0.05421762}},
        {"Neck", {0.06492402, 1.173501, 0.1466093}},
        {"RightFoot", {-0.1461435, 0.1049587, -0.1701541}},
        {"RightFootTip", {-0.1114195, -0.0085864, -0.07475107}},
        {"RightHand", {-0.3454343, 1.429163, 0.1572701}},
        {"RightHandTip", {-0.4119397, 1.500457, 0.08731125}},
        {"RightLowerArm", {-0.2227325, 1.29572, 0.2751403}},
        {"RightLowerLeg", {-0.09751264, 0.3862194, -0.03654091}},
        {"RightShoulder", {0.01262807, 1.115546, 0.1491175}},
        {"RightUpperArm", {-0.09073813, 1.115546, 0.1867397}},
        {"RightUpperLeg", {-0.04207237, 0.7575, 0.1157812}},
        {"Root", {0, 0, 0}},
        {"Spine", {0.04592019, 0.9275001, 0.0943966}},
        {NULL, {0, 0, 0}}}},
    {0.8, 0.55, 0.45, 1.975203, 0.9831497, {
        {"Chest", {-0.01360207, 1.094511, 0.1594454}},
        {"Head", {-0.02718782, 1.290678, 0.1988617}},
        {"HeadTip", {-0.04097942, 1.483853, 0.2497858}},
        {"Hips", {-0.003399998, 0.8432001, 0.1359995}},
        {"LeftFoot", {0.088634, 0.09988328, 0.02031439}},
        {"LeftFootTip", {0.08676078, -0.008192705, 0.1276274}},
        {"LeftHand", {0.2966537, 1.408785, -0.07438334}},
        {"LeftHandTip", {0.2922615, 1.441686, -0.1897013}},
        {"LeftLowerArm", {0.2974876, 1.342698, 0.1314998}},
        {"LeftLowerLeg", {0.08641226, 0.3882001, 0.147568}},
        {"LeftShoulder", {0.03164161, 1.157074, 0.1712313}},
        {"LeftUpperArm", {0.1413109, 1.165178, 0.1738728}},
        {"LeftUpperLeg", {0.08658632, 0.7932001, 0.1375701}},
        {"Neck", {-0.02281402, 1.212269, 0.1806159}},
        {"RightFoot", {-0.0938239, 0.07363858, 0.1595519}},
        {"RightFootTip", {-0.09630208, 0.01856093, 0.3015389}},
        {"RightHand", {-0.551985, 1.33728, 0.04300342}},
        {"RightHandTip", {-0.6398297, 1.380864, -0.02616148}},
        {"RightLowerArm", {-0.3889898, 1.255712, 0.1593444}},
        {"RightLowerLeg", {-0.09380684, 0.3887957, 0.1585529}},
        {"RightShoulder", {-0.0680577, 1.149706, 0.16883}},
        {"RightUpperArm", {-0.1777269, 1.141602, 0.1661886}},
        {"RightUpperLeg", {-0.09338626, 0.7932, 0.1344287}},
        {"Root", {0, 0, 0}},
        {"Spine", {-0.003574595, 0.9632, 0.1459981}},
        {NULL, {0, 0, 0}}}},
    {1, 0.25, 0.75, -10, -5, {
        {"Chest", {-0.0539439, 1.118223, 0.1815143}},
        {"Head", {-0.08223931, 1.31459, 0.2087015}},
        {"HeadTip", {-0.1156357, 1.510221, 0.2354054}},
        {"Hips", {-0.03399998, 0.867, 0.1699995}},
        {"LeftFoot", {0.1293591, 0.1652066, -0.09192724}},
        {"LeftFootTip", {0.1057435, 0.04324509, -0.003792778}},
        {"LeftHand", {0.2400644, 1.332184, -0.04081708}},
        {"LeftHandTip", {0.2164381, 1.324674, -0.1582283}},
        {"LeftLowerArm", {0.2748131, 1.339728, 0.1724706}},
        {"LeftLowerLeg", {0.08635307, 0.4330046, 0.06857116}},
        {"LeftShoulder", {-0.01513586, 1.18345, 0.1999333}},
        {"LeftUpperArm", {0.0900926, 1.196957, 0.2289943}},
        {"LeftUpperLeg", {0.0529334, 0.8170001, 0.1932931}},
        {"Neck", {-0.07199005, 1.236399, 0.1919333}},
        {"RightFoot", {-0.1846675, 0.1404211, 0.3845689}},
        {"RightFootTip", {-0.224028, 0.1319222, 0.5314652}},
        {"RightHand", {-0.6141982, 1.24761, -0.05095347}},
        {"RightHandTip", {-0.7098478, 1.264955, -0.1213118}},
        {"RightLowerArm", {-0.4367665, 1.213289, 0.06777336}},
        {"RightLowerLeg", {-0.1592159, 0.4398445, 0.2895805}},
        {"RightShoulder", {-0.1107981, 1.171172, 0.1735143}},
        {"RightUpperArm", {-0.2160266, 1.157665, 0.1444533}},
        {"RightUpperLeg", {-0.1209333, 0.817, 0.1467057}},
        {"Root", {0, 0, 0}},
        {"Spine", {-0.0365883, 0.987, 0.1796589}},
        {NULL, {0, 0, 0}}}},
    {1.3, 0.1, 0.9, 13.81129, 7.037027, {
        {"Chest", {-0.0204557, 1.057972, 0.2271726}},
        {"Head", {-0.02940913, 1.256263, 0.250582}},
        {"HeadTip", {-0.06117973, 1.451694, 0.280538}},
        {"Hips", {-0.01359999, 0.8058001, 0.2209995}},
        {"LeftFoot", {0.0419139, 0.1322001, -0.01809187}},
        {"LeftFootTip", {0.02853399, -0.007587062, 0.04090423}},
        {"LeftHand", {0.4566746, 0.9789212, 0.003989056}},
        {"LeftHandTip", {0.5162575, 0.9612841, -0.09866968}},
        {"LeftLowerArm", {0.342895, 1.016528, 0.1839777}},
        {"LeftLowerLeg", {0.04705605, 0.3521391, 0.2075747}},
        {"LeftShoulder", {0.0263014, 1.120292, 0.2326477}},
        {"LeftUpperArm", {0.1360098, 1.125718, 0.2385315}},
        {"LeftUpperLeg", {0.0762767, 0.7558002, 0.2257097}},
        {"Neck", {-0.02667645, 1.177679, 0.232774}},
        {"RightFoot", {-0.1008015, 0.04284041, 0.3166952}},
        {"RightFootTip", {-0.0858557, 0.002896542, 0.4629181}},
        {"RightHand", {-0.4605275, 0.8717407, 0.03114287}},
        {"RightHandTip", {-0.5040243, 0.8216727, -0.06886326}},
        {"RightLowerArm", {-0.3749838, 0.9662204, 0.2058193}},
        {"RightLowerLeg", {-0.1009202, 0.3561509, 0.2826144}},
        {"RightShoulder", {-0.07343355, 1.115359, 0.2272989}},
        {"RightUpperArm", {-0.183142, 1.109934, 0.2214151}},
        {"RightUpperLeg", {-0.1034766, 0.7558001, 0.2162892}},
        {"Root", {0, 0, 0}},
        {"Spine", {-0.01412343, 0.9258001, 0.2309859}},
        {NULL, {0, 0, 0}}}},
    {1.45, 0.025, 0.975, 25.88387, 13.05876, {
        {"Chest", {-0.004942289, 1.027303, 0.2482127}},
        {"Head", {-0.005842156, 1.226047, 0.2669843}},
        {"HeadTip", {-0.03782078, 1.421413, 0.2971437}},
        {"Hips", {-0.003399998, 0.7752002, 0.2464995}},
        {"LeftFoot", {0.01050831, 0.1336926, 0.03627672}},
        {"LeftFootTip", {-0.003652872, -0.01168678, 0.07945412}},
        {"LeftHand", {0.3741619, 0.7255572, 0.1016194}},
        {"LeftHandTip", {0.4299635, 0.6414246, 0.03675122}},
        {"LeftLowerArm", {0.2733112, 0.8829258, 0.2103405}},
        {"LeftLowerLeg", {0.04380127, 0.3246321, 0.2847897}},
        {"LeftShoulder", {0.0442849, 1.087911, 0.2463782}},
        {"LeftUpperArm", {0.1541262, 1.089269, 0.2406301}},
        {"LeftUpperLeg", {0.08647668, 0.7252002, 0.2417892}},
        {"Neck", {-0.006343667, 1.147285, 0.2497692}},
        {"RightFoot", {-0.08900551, 0.005641149, 0.2760425}},
        {"RightFootTip", {-0.04886625, -0.04945661, 0.4122522}},
        {"RightHand", {-0.3185172, 0.8083679, 0.05338575}},
        {"RightHandTip", {-0.3377813, 0.7766411, -0.06072957}},
        {"RightLowerArm", {-0.2793759, 0.8738734, 0.2557048}},
        {"RightLowerLeg", {-0.08803246, 0.3207957, 0.2747596}},
        {"RightShoulder", {-0.05557085, 1.086677, 0.2516037}},
        {"RightUpperArm", {-0.1654122, 1.08532, 0.2573518}},
        {"RightUpperLeg", {-0.09327663, 0.7252001, 0.2512097}},
        {"Root", {0, 0, 0}},
        {"Spine", {-0.002876696, 0.8952001, 0.256486}},
        {NULL, {0, 0, 0}}}},
};

/* Joint positions within 1e-4 m (the avatars are 1.3 to 1.6 m tall). */
#define POSITION_TOLERANCE 1e-4

static void data_path(char* out, size_t size, const char* name) {
#ifdef SW_TEST_DATA_DIR
    snprintf(out, size, "%s/vrm/%s", SW_TEST_DATA_DIR, name);
#else
    /* The build compiles this file by its absolute path: the data folder is
       next to tests/vrm/. */
    const char* file = __FILE__;
    const char* cut = strstr(file, "/vrm/test_vrma.c");
    if (cut)
        snprintf(out, size, "%.*s/data/vrm/%s", (int)(cut - file), file, name);
    else
        snprintf(out, size, "tests/data/vrm/%s", name);
#endif
}

static sw_model* load_file(const char* name) {
    char path[1024];
    data_path(path, sizeof path, name);
    sw_model* model = NULL;
    sw_diag diag = {0};
    if (sw_gltf_load_file(path, NULL, &model, &diag) != SW_OK) fprintf(stderr, "  %s\n", diag.message);
    return model;
}

static void test_read(void) {
    sw_model* m = load_file("wave.vrma");
    SW_CHECK(m != NULL);
    if (!m) return;
    sw_vrma* a = NULL;
    sw_diag diag = {0};
    SW_CHECK_EQ_INT(sw_vrma_read(m, 0, &a, &diag), SW_OK);
    SW_CHECK(a != NULL);
    if (!a) return sw_model_free(m);
    for (size_t i = 0; i < a->warning_count; i++) fprintf(stderr, "  warning: %s\n", a->warnings[i]);
    SW_CHECK_EQ_INT(a->warning_count, 0);
    SW_CHECK(a->spec_version && strcmp(a->spec_version, "1.0") == 0);
    SW_CHECK(a->has_humanoid);
    SW_CHECK_EQ_INT(a->humanoid_mapped, 18);
    SW_CHECK(a->humanoid.node[SW_HUMANOID_UPPER_CHEST] >= 0);
    SW_CHECK(a->humanoid.node[SW_HUMANOID_LEFT_SHOULDER] < 0);
    int rotations = 0;
    for (int b = 0; b < SW_HUMANOID_BONE_COUNT; b++) rotations += a->rotation_track[b] >= 0;
    SW_CHECK_EQ_INT(rotations, 12);
    SW_CHECK(a->hips_translation_track >= 0);
    SW_CHECK(a->rotation_track[SW_HUMANOID_SPINE] >= 0);
    /* The hips at rest: 1 m up, through the armature's turn and 0.01 scale. */
    SW_CHECK_NEAR(a->rest_hips_position.x, 0.0, 1e-6);
    SW_CHECK_NEAR(a->rest_hips_position.y, 1.0, 1e-6);
    SW_CHECK_NEAR(a->rest_hips_position.z, 0.0, 1e-6);
    SW_CHECK_EQ_INT(a->expression_count, 2);
    if (a->expression_count == 2) {
        SW_CHECK(strcmp(a->expressions[0].name, "happy") == 0 && a->expressions[0].preset);
        SW_CHECK(strcmp(a->expressions[1].name, "smirk") == 0 && !a->expressions[1].preset);
    }
    SW_CHECK_EQ_INT(a->expression_track_count, 2);
    if (a->expression_track_count == 2)
        SW_CHECK(a->expression_tracks[0].expression == 0 && a->expression_tracks[1].expression == 1);
    /* The same clip again through sw_vrma_read_clip: the same tracks. */
    sw_vrma* again = NULL;
    SW_CHECK_EQ_INT(sw_vrma_read_clip(a, 0, &again, &diag), SW_OK);
    if (again) {
        SW_CHECK(memcmp(again->rotation_track, a->rotation_track, sizeof a->rotation_track) == 0);
        SW_CHECK_EQ_INT(again->expression_track_count, 2);
        SW_CHECK_EQ_INT(again->look_at_track, a->look_at_track);
        SW_CHECK(again->expressions == a->expressions);
        sw_vrma_free(again);
    }
    SW_CHECK_EQ_INT(sw_vrma_read_clip(a, 1, &again, &diag), SW_ERR_INVALID_ARGUMENT);
    SW_CHECK(a->look_at_node >= 0 && a->look_at_track >= 0);
    SW_CHECK(a->has_look_at_offset);
    SW_CHECK_NEAR(a->look_at_offset[1], 0.06, 1e-7);
    sw_vrma_free(a);
    /* A plain glTF: no VRM animation, no error. */
    sw_model* plain = load_file("hair_vrm1.gltf");
    SW_CHECK(plain != NULL);
    if (plain) {
        sw_vrma* none = (sw_vrma*)1;
        SW_CHECK_EQ_INT(sw_vrma_read(plain, 0, &none, &diag), SW_OK);
        SW_CHECK(none == NULL);
        sw_model_free(plain);
    }
    sw_model_free(m);
}

/* wave.vrma on `model_name`, compared with three-vrm-animation at each
   expected time. */
static void check_on(const char* model_name, const expected_frame* frames, size_t frame_count) {
    sw_model* anim = load_file("wave.vrma");
    sw_model* m = load_file(model_name);
    SW_CHECK(anim && m);
    sw_vrma* a = NULL;
    sw_vrm* vrm = NULL;
    sw_clip* clip = NULL;
    void* memory = NULL;
    sw_diag diag = {0};
    if (!anim || !m) goto done;
    SW_CHECK_EQ_INT(sw_vrma_read(anim, 0, &a, &diag), SW_OK);
    SW_CHECK_EQ_INT(sw_vrm_read(m, &vrm, &diag), SW_OK);
    if (!a || !vrm) goto done;
    sw_vrma_retarget_info info;
    if (sw_vrma_retarget(a, m, &vrm->humanoid, &clip, &info, &diag) != SW_OK) fprintf(stderr, "  %s\n", diag.message);
    SW_CHECK(clip != NULL);
    if (!clip) goto done;
    /* upperChest: the avatars have none, so its track is dropped */
    SW_CHECK_EQ_INT(info.dropped, 1);
    SW_CHECK_EQ_INT(info.bones, 11);
    SW_CHECK_NEAR(clip->duration, 1.5, 1e-6);
    SW_CHECK(clip->name && strcmp(clip->name, "wave") == 0);
    sw_pose_sizes sizes = sw_pose_sizes_of(m);
    memory = malloc(sw_pose_memory_size(&sizes));
    SW_CHECK(memory != NULL);
    if (!memory) goto done;
    sw_pose pose;
    sw_pose_bind(&pose, &sizes, memory);
    size_t compared = 0;
    for (size_t f = 0; f < frame_count; f++) {
        const expected_frame* e = &frames[f];
        float t = (float)e->time;
        SW_CHECK_EQ_INT(sw_pose_evaluate(m, clip, t, false, &pose, &diag), SW_OK);
        for (const expected_joint* j = e->joints; j->name; j++) {
            int32_t n = sw_model_find_node_by_name(m, j->name);
            SW_CHECK(n >= 0);
            if (n < 0) continue;
            const sw_mat34* w = &pose.world[n];
            double err = 0;
            for (int k = 0; k < 3; k++) err = fmax(err, fabs(w->m[k][3] - j->p[k]));
            if (!(err <= POSITION_TOLERANCE))
                fprintf(stderr, "  %s t=%g %s: (%.6f %.6f %.6f), three-vrm (%.6f %.6f %.6f)\n", model_name, e->time,
                        j->name, w->m[0][3], w->m[1][3], w->m[2][3], j->p[0], j->p[1], j->p[2]);
            SW_CHECK(err <= POSITION_TOLERANCE);
            compared++;
        }
        SW_CHECK_NEAR(sw_vrma_expression_weight(a, 0, t), e->happy, 1e-6);
        SW_CHECK_NEAR(sw_vrma_expression_weight(a, 1, t), e->smirk, 1e-6);
        float yaw, pitch, dir[3];
        SW_CHECK(sw_vrma_look_at(a, t, &yaw, &pitch, dir));
        SW_CHECK_NEAR(yaw, e->yaw, 1e-3);
        SW_CHECK_NEAR(pitch, e->pitch, 1e-3);
        /* the direction: +Z turned by pitch (down) then yaw (to +X) */
        double ry = e->yaw * 3.14159265358979 / 180, rp = e->pitch * 3.14159265358979 / 180;
        SW_CHECK_NEAR(dir[0], sin(ry) * cos(rp), 1e-5);
        SW_CHECK_NEAR(dir[1], -sin(rp), 1e-5);
        SW_CHECK_NEAR(dir[2], cos(ry) * cos(rp), 1e-5);
    }
    SW_CHECK(compared > 150);
done:
    free(memory);
    sw_clip_free(clip);
    sw_vrm_free(vrm);
    sw_vrma_free(a);
    sw_model_free(m);
    sw_model_free(anim);
}

static void test_on_vrm1(void) { check_on("vrma_model1.vrm", EXPECTED_VRM1, sizeof EXPECTED_VRM1 / sizeof EXPECTED_VRM1[0]); }
static void test_on_vrm0(void) { check_on("vrma_model0.vrm", EXPECTED_VRM0, sizeof EXPECTED_VRM0 / sizeof EXPECTED_VRM0[0]); }

/* ---- broken files: wave.vrma with its JSON edited ------------------------------ */

static char* read_all(const char* path, size_t* size) {
    FILE* f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char* data = malloc((size_t)n + 1);
    if (data && fread(data, 1, (size_t)n, f) != (size_t)n) free(data), data = NULL;
    fclose(f);
    *size = (size_t)n;
    return data;
}

static uint32_t u32(const char* p) {
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

/* wave.vrma with `from` replaced by `to` in its JSON chunk, written to
   `path`; false when `from` is not there. */
static bool write_edited(const char* path, const char* from, const char* to) {
    char src[1024];
    data_path(src, sizeof src, "wave.vrma");
    size_t size = 0;
    char* glb = read_all(src, &size);
    if (!glb) return false;
    uint32_t json_len = u32(glb + 12);
    char* json = glb + 20;
    char* at = strstr(json, from); /* the JSON is ASCII, padded with spaces, and the BIN chunk follows */
    if (!at || at >= json + json_len) return free(glb), false;
    size_t head = (size_t)(at - json), from_len = strlen(from), to_len = strlen(to);
    size_t new_len = json_len - from_len + to_len;
    size_t padded = (new_len + 3) & ~(size_t)3;
    size_t rest = size - 20 - json_len;
    uint32_t total = (uint32_t)(20 + padded + rest);
    FILE* f = fopen(path, "wb");
    if (!f) return free(glb), false;
    uint32_t header[5] = {0x46546C67u, 2u, total, (uint32_t)padded, 0x4E4F534Au};
    fwrite(header, 4, 5, f);
    fwrite(json, 1, head, f);
    fwrite(to, 1, to_len, f);
    fwrite(at + from_len, 1, json_len - head - from_len, f);
    for (size_t k = new_len; k < padded; k++) fputc(' ', f);
    fwrite(json + json_len, 1, rest, f);
    fclose(f);
    free(glb);
    return true;
}

static void test_broken(void) {
    static const struct {
        const char* from;
        const char* to;
        const char* message; /* after "FILE: " */
    } cases[] = {
        {"\"hips\":{\"node\":1}", "\"hips\":{\"node\":99}",
         "extensions.VRMC_vrm_animation.humanoid.humanBones.hips.node: 99 is out of range"},
        {"\"hips\":{\"node\":1}", "\"hips\":{\"node\":\"1\"}",
         "extensions.VRMC_vrm_animation.humanoid.humanBones.hips.node: expected an integer"},
        {"\"hips\":{\"node\":1}", "\"hips\":[1]", "extensions.VRMC_vrm_animation.humanoid.humanBones.hips: expected an object"},
        {"\"humanoid\":{\"humanBones\":{", "\"humanoid\":{\"humanBones\":7,\"z\":{",
         "extensions.VRMC_vrm_animation.humanoid.humanBones: expected an object"},
        {"\"specVersion\":\"1.0\"", "\"specVersion\":1", "extensions.VRMC_vrm_animation.specVersion: expected"},
        {"\"specVersion\":\"1.0\"", "\"specVersion\":\"2.0\"", "extensions.VRMC_vrm_animation.specVersion: \"2.0\" is not a supported"},
        {"\"expressions\":{\"preset\":", "\"expressions\":{\"preset\":7,\"x\":", "extensions.VRMC_vrm_animation.expressions.preset: expected an object"},
        {"\"custom\":{\"smirk\":{\"node\":", "\"custom\":{\"smirk\":{\"node\":-", "extensions.VRMC_vrm_animation.expressions.custom.smirk.node:"},
        {"\"offsetFromHeadBone\":[0.0,0.06,0.0]", "\"offsetFromHeadBone\":[0.0,\"a\",0.0]",
         "extensions.VRMC_vrm_animation.lookAt.offsetFromHeadBone[1]: expected a number"},
        {"\"lookAt\":{\"node\":", "\"lookAt\":{\"node\":1e9,\"x\":", "extensions.VRMC_vrm_animation.lookAt.node:"},
    };
    char dir[] = "/tmp/sinew_vrma_XXXXXX";
    if (!mkdtemp(dir)) SW_SKIP("no temporary folder");
    char path[256];
    snprintf(path, sizeof path, "%s/broken.vrma", dir);
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        bool written = write_edited(path, cases[c].from, cases[c].to);
        SW_CHECK(written);
        if (!written) continue;
        sw_model* m = NULL;
        sw_diag diag = {0};
        if (sw_gltf_load_file(path, NULL, &m, &diag) != SW_OK) fprintf(stderr, "  case %zu: %s\n", c, diag.message);
        SW_CHECK(m != NULL);
        if (!m) continue;
        sw_vrma* a = (sw_vrma*)1;
        sw_result r = sw_vrma_read(m, 0, &a, &diag);
        SW_CHECK_EQ_INT(r, SW_ERR_INVALID_DATA);
        SW_CHECK(a == NULL);
        char want[512];
        snprintf(want, sizeof want, "%s: %s", path, cases[c].message);
        if (!strstr(diag.message, want)) fprintf(stderr, "  case %zu: got \"%s\"\n  wanted \"%s\"\n", c, diag.message, want);
        SW_CHECK(strstr(diag.message, want) != NULL);
        SW_CHECK(strchr(diag.message, '\n') == NULL);
        sw_model_free(m);
    }
    /* Warnings, not errors: an unknown bone, the eyes, a look preset, a
       node used twice, a scale track on a bone. */
    static const struct {
        const char* from;
        const char* to;
        const char* warning;
    } warns[] = {
        {"\"hips\":{\"node\":1}", "\"hips\":{\"node\":1},\"tail\":{\"node\":2}", "humanBones.tail: ignored"},
        {"\"hips\":{\"node\":1}", "\"hips\":{\"node\":1},\"leftEye\":{\"node\":2}", "humanBones.leftEye: ignored"},
        {"\"preset\":{", "\"preset\":{\"lookUp\":{\"node\":0},", "preset.lookUp: ignored"},
        {"\"hips\":{\"node\":1}", "\"hips\":{\"node\":1},\"jaw\":{\"node\":1}", "already used"},
        {"\"path\":\"translation\"}", "\"path\":\"scale\"}", "ignored: a scale track on humanoid bone hips"},
    };
    for (size_t c = 0; c < sizeof warns / sizeof warns[0]; c++) {
        bool written = write_edited(path, warns[c].from, warns[c].to);
        SW_CHECK(written);
        if (!written) continue;
        sw_model* m = NULL;
        sw_diag diag = {0};
        SW_CHECK_EQ_INT(sw_gltf_load_file(path, NULL, &m, &diag), SW_OK);
        if (!m) continue;
        sw_vrma* a = NULL;
        SW_CHECK_EQ_INT(sw_vrma_read(m, 0, &a, &diag), SW_OK);
        bool found = false;
        for (size_t w = 0; a && w < a->warning_count; w++) found = found || strstr(a->warnings[w], warns[c].warning);
        if (!found) fprintf(stderr, "  warning case %zu: no \"%s\"\n", c, warns[c].warning);
        SW_CHECK(found);
        sw_vrma_free(a);
        sw_model_free(m);
    }
    unlink(path);
    rmdir(dir);
}

/* A STEP rotation track stays STEP: the keys are mapped one by one, the
   interpolation is glTF's (three-vrm-animation 3.5.5 plays it as LINEAR). */
static void test_step(void) {
    char dir[] = "/tmp/sinew_vrma_XXXXXX";
    if (!mkdtemp(dir)) SW_SKIP("no temporary folder");
    char path[256];
    snprintf(path, sizeof path, "%s/step.vrma", dir);
    /* the first sampler is the hips rotation's */
    SW_CHECK(write_edited(path, "\"interpolation\":\"LINEAR\"", "\"interpolation\":\"STEP\""));
    sw_model* anim = NULL;
    sw_model* m = load_file("vrma_model1.vrm");
    sw_diag diag = {0};
    SW_CHECK_EQ_INT(sw_gltf_load_file(path, NULL, &anim, &diag), SW_OK);
    sw_vrma* a = NULL;
    sw_vrm* vrm = NULL;
    sw_clip* clip = NULL;
    if (anim && m && sw_vrma_read(anim, 0, &a, &diag) == SW_OK && a && sw_vrm_read(m, &vrm, &diag) == SW_OK && vrm &&
        sw_vrma_retarget(a, m, &vrm->humanoid, &clip, NULL, &diag) == SW_OK) {
        int32_t hips = vrm->humanoid.node[SW_HUMANOID_HIPS];
        const sw_track* t = NULL;
        for (size_t k = 0; k < clip->track_count; k++)
            if (clip->tracks[k].target == (uint32_t)hips && clip->tracks[k].path == SW_PATH_ROTATION) t = &clip->tracks[k];
        SW_CHECK(t && t->interpolation == SW_INTERP_STEP);
        if (t) {
            float q0[4], q1[4];
            sw_track_sample(t, 0.0f, NULL, q0);
            sw_track_sample(t, 0.49f, NULL, q1);
            for (int i = 0; i < 4; i++) SW_CHECK_NEAR(q0[i], q1[i], 0);
        }
    } else {
        SW_CHECK(false);
    }
    sw_clip_free(clip);
    sw_vrm_free(vrm);
    sw_vrma_free(a);
    sw_model_free(m);
    sw_model_free(anim);
    unlink(path);
    rmdir(dir);
}

int main(void) {
    SW_RUN(test_read);
    SW_RUN(test_on_vrm1);
    SW_RUN(test_on_vrm0);
    SW_RUN(test_broken);
    SW_RUN(test_step);
    return sw_test_finish();
}
