<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.8" tiledversion="1.8.2" name="tavern" tilewidth="16" tileheight="16" tilecount="8" columns="4">
 <image source="tavern.png" width="64" height="32"/>
 <tile id="1" type="wall">
  <properties>
   <property name="blocked" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="2" type="furniture">
  <properties>
   <property name="blocked" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="3">
  <properties>
   <property name="cost" type="int" value="2"/>
  </properties>
 </tile>
 <tile id="4" type="water">
  <properties>
   <property name="area" type="int" value="2"/>
   <property name="cost" type="int" value="3"/>
  </properties>
 </tile>
 <tile id="5">
  <properties>
   <property name="area" type="int" value="0"/>
   <property name="blocked" type="bool" value="false"/>
   <property name="cost" type="int" value="1"/>
  </properties>
 </tile>
</tileset>
