// The structs handed to the C API as they are (pinned, not marshalled; public ones and the
// internal copies of the options) have the C structs' layout: the sizes and offsets below are
// those of wayfinder.h on 64-bit platforms
// (bindings/c/tests/abi_layout.c prints the C side).
using System;
using System.Runtime.InteropServices;
using NUnit.Framework;

namespace Wayfinder.Tests
{
    [TestFixture]
    public class StructLayoutTests
    {
        private static int Offset<T>(string field) { return Marshal.OffsetOf(typeof(T), field).ToInt32(); }

        [SetUp]
        public void SixtyFourBitOnly()
        {
            if (IntPtr.Size != 8) Assert.Ignore("the expected layouts are those of 64-bit platforms");
        }

        [Test]
        public void CrowdSettingsIsWfCrowdSettings()
        {
            Assert.That(Marshal.SizeOf(typeof(CrowdSettings)), Is.EqualTo(104));
            Assert.That(Offset<CrowdSettings>("TimeHorizon"), Is.EqualTo(8));
            Assert.That(Offset<CrowdSettings>("maxNeighbours"), Is.EqualTo(32));
            Assert.That(Offset<CrowdSettings>("collisionIterations"), Is.EqualTo(40));
            Assert.That(Offset<CrowdSettings>("StuckTime"), Is.EqualTo(48));
            Assert.That(Offset<CrowdSettings>("maxMovePolygons"), Is.EqualTo(72));
            Assert.That(Offset<CrowdSettings>("TargetSnapDistance"), Is.EqualTo(88));
            Assert.That(Offset<CrowdSettings>("minAgentsPerThread"), Is.EqualTo(96));
        }

        [Test]
        public void CrowdAgentSettingsIsWfCrowdAgentSettings()
        {
            Assert.That(Marshal.SizeOf(typeof(CrowdAgentSettings)), Is.EqualTo(56));
            Assert.That(Offset<CrowdAgentSettings>("Height"), Is.EqualTo(8));
            Assert.That(Offset<CrowdAgentSettings>("ArrivalRadius"), Is.EqualTo(40));
            Assert.That(Offset<CrowdAgentSettings>("UserId"), Is.EqualTo(48));
        }

        [Test]
        public void OffMeshLinkIsWfOffMeshLink()
        {
            Assert.That(Marshal.SizeOf(typeof(OffMeshLink)), Is.EqualTo(80));
            Assert.That(Offset<OffMeshLink>("End"), Is.EqualTo(24));
            Assert.That(Offset<OffMeshLink>("Radius"), Is.EqualTo(48));
            Assert.That(Offset<OffMeshLink>("Cost"), Is.EqualTo(56));
            Assert.That(Offset<OffMeshLink>("bidirectional"), Is.EqualTo(64));
            Assert.That(Offset<OffMeshLink>("Area"), Is.EqualTo(68));
            Assert.That(Offset<OffMeshLink>("Flags"), Is.EqualTo(70));
            Assert.That(Offset<OffMeshLink>("UserId"), Is.EqualTo(72));
        }

        [Test]
        public void PathLinkIsWfPathLink()
        {
            Assert.That(Marshal.SizeOf(typeof(PathLink)), Is.EqualTo(16));
            Assert.That(Offset<PathLink>("Link"), Is.EqualTo(8));
            Assert.That(Offset<PathLink>("reverse"), Is.EqualTo(12));
        }

        [Test]
        public void CrowdLinkCrossingIsWfCrowdLinkCrossing()
        {
            Assert.That(Marshal.SizeOf(typeof(CrowdLinkCrossing)), Is.EqualTo(80));
            Assert.That(Offset<CrowdLinkCrossing>("End"), Is.EqualTo(24));
            Assert.That(Offset<CrowdLinkCrossing>("Duration"), Is.EqualTo(48));
            Assert.That(Offset<CrowdLinkCrossing>("Elapsed"), Is.EqualTo(56));
            Assert.That(Offset<CrowdLinkCrossing>("Progress"), Is.EqualTo(64));
            Assert.That(Offset<CrowdLinkCrossing>("Link"), Is.EqualTo(72));
            Assert.That(Offset<CrowdLinkCrossing>("reverse"), Is.EqualTo(76));
        }

        [Test]
        public void SearchTraceEventIsFourDoubles()
        {
            Assert.That(Marshal.SizeOf(typeof(SearchTraceEvent)), Is.EqualTo(32));
            Assert.That(Offset<SearchTraceEvent>("Position"), Is.EqualTo(8));
        }

        // The internal structs the options are copied into, found by name (they are not public).
        private static Type Internal(string name) { return typeof(NavMesh).Assembly.GetType("Wayfinder." + name, true); }
        private static int InternalOffset(string type, string field) { return Marshal.OffsetOf(Internal(type), field).ToInt32(); }

        [Test]
        public void NativeAreaFilterIsWfAreaFilter()
        {
            Assert.That(Marshal.SizeOf(Internal("NativeAreaFilter")), Is.EqualTo(260));
            Assert.That(InternalOffset("NativeAreaFilter", "IncludeFlags"), Is.EqualTo(256));
            Assert.That(InternalOffset("NativeAreaFilter", "ExcludeFlags"), Is.EqualTo(258));
        }

        [Test]
        public void NativeGridOptionsIsWfGridOptions()
        {
            Assert.That(Marshal.SizeOf(Internal("NativeGridOptions")), Is.EqualTo(72));
            Assert.That(InternalOffset("NativeGridOptions", "Algorithm"), Is.EqualTo(32));
            Assert.That(InternalOffset("NativeGridOptions", "Weight"), Is.EqualTo(48));
            Assert.That(InternalOffset("NativeGridOptions", "Filter"), Is.EqualTo(64));
        }

        [Test]
        public void NativeNavMeshOptionsIsWfNavMeshOptions()
        {
            Assert.That(Marshal.SizeOf(Internal("NativeNavMeshOptions")), Is.EqualTo(72));
            Assert.That(InternalOffset("NativeNavMeshOptions", "Nodes"), Is.EqualTo(32));
            Assert.That(InternalOffset("NativeNavMeshOptions", "Weight"), Is.EqualTo(40));
            Assert.That(InternalOffset("NativeNavMeshOptions", "HeightTolerance"), Is.EqualTo(48));
            Assert.That(InternalOffset("NativeNavMeshOptions", "SnapDistance"), Is.EqualTo(56));
            Assert.That(InternalOffset("NativeNavMeshOptions", "Filter"), Is.EqualTo(64));
            Assert.That(Marshal.SizeOf(Internal("NativeNavMeshRequest")), Is.EqualTo(56));
            Assert.That(InternalOffset("NativeNavMeshRequest", "Options"), Is.EqualTo(48));
        }

        [Test]
        public void NativeNavMeshBuildReportIsWfNavMeshBuildReport()
        {
            Assert.That(Marshal.SizeOf(Internal("NativeNavMeshBuildReport")), Is.EqualTo(72));
            Assert.That(InternalOffset("NativeNavMeshBuildReport", "WalkableTriangles"), Is.EqualTo(8));
            Assert.That(InternalOffset("NativeNavMeshBuildReport", "GridWidth"), Is.EqualTo(16));
            Assert.That(InternalOffset("NativeNavMeshBuildReport", "GridDepth"), Is.EqualTo(20));
            Assert.That(InternalOffset("NativeNavMeshBuildReport", "Tiles"), Is.EqualTo(24));
            Assert.That(InternalOffset("NativeNavMeshBuildReport", "Polygons"), Is.EqualTo(32));
            Assert.That(InternalOffset("NativeNavMeshBuildReport", "Vertices"), Is.EqualTo(40));
            Assert.That(InternalOffset("NativeNavMeshBuildReport", "DetailTriangles"), Is.EqualTo(48));
            Assert.That(InternalOffset("NativeNavMeshBuildReport", "BorderVerticesAdded"), Is.EqualTo(56));
            Assert.That(InternalOffset("NativeNavMeshBuildReport", "Milliseconds"), Is.EqualTo(64));
        }

        [Test]
        public void NativeMovementProfileIsWfMovementProfile()
        {
            Assert.That(Marshal.SizeOf(Internal("NativeMovementProfile")), Is.EqualTo(104));
            Assert.That(InternalOffset("NativeMovementProfile", "Fly"), Is.EqualTo(32));
            Assert.That(InternalOffset("NativeMovementProfile", "AgentWidth"), Is.EqualTo(36));
            Assert.That(InternalOffset("NativeMovementProfile", "WalkCost"), Is.EqualTo(40));
            Assert.That(InternalOffset("NativeMovementProfile", "FlyCost"), Is.EqualTo(96));
        }

        [Test]
        public void CrowdAgentStateIsFourBytes()
        {
            Assert.That(Marshal.SizeOf(Enum.GetUnderlyingType(typeof(CrowdAgentState))), Is.EqualTo(4));
            Assert.That(Marshal.SizeOf(Enum.GetUnderlyingType(typeof(CrowdLinkEvent))), Is.EqualTo(4));
        }
    }
}
